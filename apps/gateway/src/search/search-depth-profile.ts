import type { SearchDepth } from '@sift/api-contracts';

/** How each search_depth trades latency for content: budgets and what the pipeline may do within them. */
export interface SearchDepthProfile {
  /** Time the upstream providers (SearXNG) get before their results are dropped. */
  providerDeadlineMs: number;
  /** Time from the request's start by which every page fetch must have answered. */
  contentDeadlineMs: number;
  /** Candidates retrieved per requested result: more candidates let re-ranking find better pages. */
  candidateFactor: number;
  /** Where content may come from: the index's own text, the document store, or a fresh fetch. */
  content: 'index' | 'cache' | 'fetch';
  /** Chunks ranked across all sources (advanced) instead of per source. */
  crossSourceRanking: boolean;
  /** Time the answer model gets. */
  answerDeadlineMs: number;
}

export const SEARCH_DEPTH_PROFILES: Readonly<Record<SearchDepth, SearchDepthProfile>> = {
  'ultra-fast': { providerDeadlineMs: 1_500, contentDeadlineMs: 0, candidateFactor: 1, content: 'index', crossSourceRanking: false, answerDeadlineMs: 5_000 },
  fast: { providerDeadlineMs: 2_500, contentDeadlineMs: 0, candidateFactor: 1, content: 'cache', crossSourceRanking: false, answerDeadlineMs: 8_000 },
  basic: { providerDeadlineMs: 4_000, contentDeadlineMs: 10_000, candidateFactor: 1, content: 'fetch', crossSourceRanking: false, answerDeadlineMs: 15_000 },
  advanced: { providerDeadlineMs: 6_000, contentDeadlineMs: 20_000, candidateFactor: 3, content: 'fetch', crossSourceRanking: true, answerDeadlineMs: 30_000 },
};
