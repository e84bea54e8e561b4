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
import { webPageSchema } from './web-page.schema';

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
  /** A stored copy younger than this is served instead of fetching; absent means always fetch. */
  maxCacheAgeMs: z.number().int().min(0).optional(),
  /**
   * The result also carries the page's whole text and markdown (`body`): a search cuts its own chunks and raw content
   * from them. Otherwise the result carries only `content`, what the caller asked for, and the page's metadata.
   */
  wholePage: z.boolean().optional(),
});
export type ExtractUrlPayload = z.infer<typeof extractUrlPayloadSchema>;

/**
 * A page in an extract job's result: the page without its text and markdown, which `content` (and `body` when the
 * payload asked for the whole page) carries instead, so a page's words cross the queue once, not three times.
 */
export const extractedPageSchema = webPageSchema.omit({ text: true, markdown: true });
export type ExtractedPage = z.infer<typeof extractedPageSchema>;

export const extractUrlSuccessSchema = z.object({
  ok: z.literal(true),
  /** page.url is the URL as requested. */
  page: extractedPageSchema,
  /** What the caller asked for: the query's chunks, or the whole content in the requested format. */
  content: z.string(),
  /** The page's whole text and markdown, when the payload asked for them (wholePage). */
  body: z.object({ text: z.string(), markdown: z.string() }).optional(),
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
