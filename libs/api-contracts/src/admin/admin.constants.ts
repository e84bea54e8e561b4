/** Bounds of the admin API's inputs. An operator crawl has the crawl job's own bounds, the deadline capped at 150 s. */
export const ADMIN_LIMITS = {
  crawl: {
    maxDepth: { max: 5, default: 1 },
    maxBreadth: { max: 500, default: 20 },
    limit: { max: 10_000, default: 50 },
    timeoutSeconds: { max: 150, default: 150 },
  },
  embedBatchSize: { max: 2048, default: 32 },
  accountNameCharacters: 200,
  list: { max: 500, default: 100 },
} as const;

export const ADMIN_JOB_KINDS = ['index.import', 'index.crawl', 'index.rechunk', 'index.resegment', 'index.embed'] as const;
export const ADMIN_JOB_STATES = ['queued', 'running', 'succeeded', 'failed'] as const;
export const ADMIN_OUTCOMES = ['started', 'succeeded', 'failed'] as const;
export const KEY_ENVIRONMENTS = ['dev', 'prod'] as const;
