import { browserEnv, coreEnv, fetchEnv, parsingEnv, threadCount } from '@sift/config';
import { z } from 'zod';

/** The settings of the crawler worker: core, fetch, parsing and browser fragments plus its own. */
export const crawlerEnv = coreEnv.merge(fetchEnv).merge(parsingEnv).merge(browserEnv).extend({
  /** Crawl and map jobs this process runs at once (each holds its own frontier). */
  CRAWL_CONCURRENCY: z.coerce.number().int().min(1).default(4),
  /** Port of the worker's /health and /metrics endpoints. */
  CRAWLER_PORT: z.coerce.number().int().min(0).default(3102),
  /** Pages rendered in Chromium at once (advanced crawls, and pages that need their scripts), over all crawls of this process. */
  BROWSER_PAGES: z.coerce.number().int().min(1).default(4),
  /** Pages one crawl renders at once, at most BROWSER_PAGES: one client-rendered site leaves the browser to the other crawls. */
  CRAWL_RENDER_PAGES: z.coerce.number().int().min(1).default(2),
  /** Requests in flight to one host at most, over all crawls of this process: the ceiling of the limit learned from its answers. */
  CRAWL_HOST_MAX_CONCURRENCY: z.coerce.number().int().min(1).default(16),
  /** Requests in flight to a host before its answers are known; its quick, steady answers raise it, 429/503, errors and slowing answers halve it. */
  CRAWL_HOST_START_CONCURRENCY: z.coerce.number().int().min(1).default(8),
  /** Worker threads extracting crawled pages, over all crawls of this process (never on the event loop). */
  CRAWL_EXTRACTION_THREADS: threadCount(),
});

export type CrawlerConfig = z.infer<typeof crawlerEnv>;
