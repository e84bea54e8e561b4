/** Bounds shared by crawl and map, which walk a site the same way. */
export const SITE_TRAVERSAL_LIMITS = {
  maxDepth: { min: 1, max: 5, default: 1 },
  maxBreadth: { min: 1, max: 500, default: 20 },
  limit: { min: 1, default: 50 },
  timeout: { min: 10, max: 150, default: 150 },
  // The crawler refuses more patterns per field, or longer ones (scope-patterns.ts): the gateway refuses them first.
  patternsPerField: 100,
  patternCharacters: 1000,
} as const;

/** Message of the 400 answered when crawl or map is called without `url`. */
export const NO_STARTING_URL_MESSAGE = 'no starting url provided';
