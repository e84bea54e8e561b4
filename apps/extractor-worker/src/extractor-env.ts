import { browserEnv, coreEnv, fetchEnv, parsingEnv, threadCount } from '@sift/config';
import { z } from 'zod';

const integer = (fallback: number, minimum = 0) => z.coerce.number().int().min(minimum).default(fallback);

/** The settings of the extractor worker: core, fetch, parsing and browser fragments plus its own. */
export const extractorEnv = coreEnv.merge(fetchEnv).merge(parsingEnv).merge(browserEnv).extend({
  /**
   * Jobs of queue "extract" this process runs at once. Mostly waiting on the network (parsing has its own threads,
   * rendering BROWSER_PAGES): enough that a 10-URL extract or a search's hedged fetches all start at once, so an
   * answer waits for its slowest page, not for a slot behind someone else's.
   */
  EXTRACT_CONCURRENCY: integer(32, 1),
  /** Port of the worker's /health and /metrics endpoints. */
  EXTRACTOR_PORT: integer(3101),
  /** Pages rendered in Chromium at once. */
  BROWSER_PAGES: integer(4, 1),
  /** Worker threads parsing fetched documents (HTML, PDF, text), over all jobs of this process. */
  EXTRACT_PARSE_THREADS: threadCount(),
});

export type ExtractorConfig = z.infer<typeof extractorEnv>;
