import { z } from 'zod';
import { defineJob } from './job-definition';
import { QueueName } from './queue-name';
import {
  accountIdSchema,
  chunksPerSourceSchema,
  contentFormatSchema,
  extractDepthSchema,
  requestIdSchema,
} from './shared-schemas';

export const extractUrlPayloadSchema = z.object({
  requestId: requestIdSchema,
  accountId: accountIdSchema,
  url: z.string().min(1).max(8192),
  extractDepth: extractDepthSchema,
  format: contentFormatSchema,
  /** Deadline for this URL, measured from the moment the worker picks the job up. */
  timeoutMs: z.number().int().min(1).max(150_000),
  includeImages: z.boolean(),
  includeFavicon: z.boolean(),
  query: z.string().min(1).optional(),
  chunksPerSource: chunksPerSourceSchema,
  /** False for accounts with zero data retention: nothing about the page is written to the document store. */
  storeDocument: z.boolean(),
  /** A stored copy younger than this is served instead of fetching; absent means always fetch. */
  maxCacheAgeMs: z.number().int().min(0).optional(),
});
export type ExtractUrlPayload = z.infer<typeof extractUrlPayloadSchema>;

export const extractUrlSuccessSchema = z.object({
  ok: z.literal(true),
  url: z.string(),
  rawContent: z.string(),
  images: z.array(z.string()).optional(),
  favicon: z.string().optional(),
  title: z.string(),
  fromCache: z.boolean(),
});
export type ExtractUrlSuccess = z.infer<typeof extractUrlSuccessSchema>;

/** A per-URL problem is a result, not a job failure: the gateway reports it in `failed_results`. */
export const extractUrlFailureSchema = z.object({
  ok: z.literal(false),
  url: z.string(),
  error: z.string(),
});
export type ExtractUrlFailure = z.infer<typeof extractUrlFailureSchema>;

export const extractUrlResultSchema = z.discriminatedUnion('ok', [extractUrlSuccessSchema, extractUrlFailureSchema]);
export type ExtractUrlResult = z.infer<typeof extractUrlResultSchema>;

export const ExtractUrlJob = defineJob({
  name: 'extract-url',
  queue: QueueName.Extract,
  payloadSchema: extractUrlPayloadSchema,
  resultSchema: extractUrlResultSchema,
  attempts: 1,
});
