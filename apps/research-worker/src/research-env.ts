import { coreEnv, fetchEnv, llmEnv, modelsEnv, searchEnv } from '@sift/config';
import { z } from 'zod';

/** The settings of the research worker: core, fetch (egress, cache), LLM, models and search fragments plus its own. */
export const researchEnv = coreEnv.merge(fetchEnv).merge(llmEnv).merge(modelsEnv).merge(searchEnv).extend({
  /** Port of the worker's /health and /metrics endpoints. */
  RESEARCH_PORT: z.coerce.number().int().min(0).default(3103),
  /** Research tasks this process works on at once (each mostly waits on searches and the extractor worker). */
  RESEARCH_CONCURRENCY: z.coerce.number().int().min(1).default(4),
  /**
   * How often, in ms, unfinished tasks past their deadline are failed (their credits released), and unfinished tasks
   * older than this whose job is gone (Redis lost it) are queued again.
   */
  RESEARCH_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
});

export type ResearchWorkerConfig = z.infer<typeof researchEnv>;
