import { z } from 'zod';
import {
  accountIdSchema,
  chunksPerSourceSchema,
  contentFormatSchema,
  extractDepthSchema,
  requestIdSchema,
} from './shared-schemas';
import { urlFailureCodeSchema } from './url-failure-code';

/** Payload shared by crawl and map jobs: it mirrors the crawl request (spec POST /crawl). */
export const crawlPayloadSchema = z.object({
  requestId: requestIdSchema,
  accountId: accountIdSchema,
  url: z.string().min(1).max(8192),
  instructions: z.string().min(1).optional(),
  chunksPerSource: chunksPerSourceSchema,
  maxDepth: z.number().int().min(1).max(5),
  maxBreadth: z.number().int().min(1).max(500),
  limit: z.number().int().min(1),
  selectPaths: z.array(z.string()).optional(),
  selectDomains: z.array(z.string()).optional(),
  excludePaths: z.array(z.string()).optional(),
  excludeDomains: z.array(z.string()).optional(),
  allowExternal: z.boolean(),
  includeImages: z.boolean(),
  extractDepth: extractDepthSchema,
  format: contentFormatSchema,
  includeFavicon: z.boolean(),
  /** Deadline of the whole crawl, measured from the moment the worker picks the job up. */
  timeoutMs: z.number().int().min(1).max(150_000),
});
export type CrawlPayload = z.infer<typeof crawlPayloadSchema>;

/** A page the crawl reached but could not process: the reason in words and its code (the answer's failed_results). */
export const crawlFailureSchema = z.object({
  url: z.string(),
  error: z.string(),
  errorCode: urlFailureCodeSchema,
});
export type CrawlFailure = z.infer<typeof crawlFailureSchema>;

/** Pages the crawl could not process and whether the deadline or limit cut it short. */
export const crawlProgressSchema = z.object({
  successfulPages: z.number().int().min(0),
  failedPages: z.number().int().min(0),
  partial: z.boolean(),
  /** The failed pages (the first 100), optional: a worker of an earlier version answers without them. */
  failures: z.array(crawlFailureSchema).optional(),
  /** Links in scope that were not followed because robots.txt disallows them. */
  robotsRefused: z.number().int().min(0).optional(),
});
