import { z } from 'zod';
import { defineJob } from './job-definition';
import { QueueName } from './queue-name';
import { urlFailureCodeSchema } from './url-failure-code';
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
   * The result carries the whole page (its text and markdown) instead of `content`: a search cuts its own chunks and raw
   * content from it. Otherwise the result carries only `content`, what the caller asked for, and the page's metadata.
   */
  wholePage: z.boolean().optional(),
  /**
   * Answer as soon as the page is made and store it afterwards (its index entry prepared then, off the answer's path):
   * an extract, which answers at its slowest URL's time, and a search within its latency budget. Otherwise the job
   * answers once the page is stored, so the caller's next request finds it (or once the store has taken 2 s without
   * writing it: a store that stopped answering does not hold the page).
   */
  storeAfterAnswer: z.boolean().optional(),
});
export type ExtractUrlPayload = z.infer<typeof extractUrlPayloadSchema>;

/**
 * A page in an extract job's result: the one page type, narrowed by field selection. Its text and markdown travel only
 * when the payload asked for the whole page (wholePage); otherwise `content`, what the caller asked for, carries its
 * words, so a page's words cross the queue once.
 */
export const extractedPageSchema = webPageSchema.extend({ text: z.string().optional(), markdown: z.string().optional() });
export type ExtractedPage = z.infer<typeof extractedPageSchema>;

export const extractUrlSuccessSchema = z.object({
  ok: z.literal(true),
  /** page.url is the URL as requested; with wholePage the page is whole (its text and markdown included). */
  page: extractedPageSchema,
  /** What the caller asked for: the query's chunks, or the whole content in the requested format. Absent with wholePage. */
  content: z.string().optional(),
  fromCache: z.boolean(),
  /** How the page pipeline got the page: a stored copy, the stored page of an unchanged response, the response, the browser. */
  via: z.enum(['store', 'unchanged', 'fetch', 'render']),
});
export type ExtractUrlSuccess = z.infer<typeof extractUrlSuccessSchema>;

/** A per-URL problem is a result, not a job failure: the gateway reports it in `failed_results`. */
export const extractUrlFailureSchema = z.object({
  ok: z.literal(false),
  url: z.string(),
  error: z.string(),
  /** Optional: a worker of an earlier version answers without it (the gateway then reports `internal`). */
  errorCode: urlFailureCodeSchema.optional(),
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
