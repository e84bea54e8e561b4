import type { SearchDepth } from '@sift/api-contracts';
import { SEARCH_LATENCY_BUDGETS, type SearchConfig } from '@sift/config';

/** How each search_depth trades latency for content: budgets and what the pipeline may do within them. */
export interface SearchDepthProfile {
  /** Time the upstream providers (SearXNG) get before their results are dropped. */
  providerDeadlineMs: number;
  /**
   * The latency budget: time from the request's start after which the answer stops waiting for pages and shows
   * the upstream snippet (with a warning) for each page still loading. 0: the depth never fetches.
   */
  answerBudgetMs: number;
  /**
   * From this time on (since the request's start), the first pages to arrive win: the answer goes out as soon as
   * enough candidates have their page, even if a better-ranked one is still loading. Absent: only the budget
   * cuts the wait (advanced ranks every candidate's content, so it waits for all of them).
   */
  hedgeAfterMs?: number;
  /** Upstream candidates fetched per wanted result: more than one lets the first pages to answer stand in for slow ones. */
  fetchFactor: number;
  /**
   * Time from the request's start a page fetch may take in the background after the answer has gone: its page then
   * goes to the store, where the next request finds it.
   */
  backgroundDeadlineMs: number;
  /** Candidates retrieved per requested result: more candidates let re-ranking find better pages. */
  candidateFactor: number;
  /** Where content may come from: the index's own text, the document store, or a fresh fetch. */
  content: 'index' | 'cache' | 'fetch';
  /** Chunks ranked across all sources (advanced) instead of per source. */
  crossSourceRanking: boolean;
  /** Time the answer model gets. */
  answerDeadlineMs: number;
}

/**
 * The default budgets come from the simulated web (bench/simulated-web: 80 % of pages answer in 150–600 ms, 15 % in
 * 1–2.5 s, 5 % in 4–8 s; the upstream in 300–700 ms) and the targets in docs/search-latency.md: basic answers by
 * 0.95 s, taking the first pages to arrive from 0.6 s on out of twice as many fetched candidates as it shows; advanced,
 * which ranks every candidate's chunks, waits for all its pages up to 2.2 s. SEARCH_BUDGET_* and SEARCH_HEDGE_* set them.
 */
export const SEARCH_DEPTH_PROFILES: Readonly<Record<SearchDepth, SearchDepthProfile>> = {
  'ultra-fast': {
    providerDeadlineMs: 1_500,
    answerBudgetMs: 0,
    fetchFactor: 1,
    backgroundDeadlineMs: 0,
    candidateFactor: 1,
    content: 'index',
    crossSourceRanking: false,
    answerDeadlineMs: 5_000,
  },
  fast: {
    providerDeadlineMs: 2_500,
    answerBudgetMs: 0,
    fetchFactor: 1,
    backgroundDeadlineMs: 0,
    candidateFactor: 1,
    content: 'cache',
    crossSourceRanking: false,
    answerDeadlineMs: 8_000,
  },
  basic: {
    providerDeadlineMs: 4_000,
    answerBudgetMs: SEARCH_LATENCY_BUDGETS.basicMs,
    hedgeAfterMs: SEARCH_LATENCY_BUDGETS.hedgeBasicMs,
    fetchFactor: 2,
    backgroundDeadlineMs: 10_000,
    candidateFactor: 1,
    content: 'fetch',
    crossSourceRanking: false,
    answerDeadlineMs: 15_000,
  },
  advanced: {
    providerDeadlineMs: 6_000,
    answerBudgetMs: SEARCH_LATENCY_BUDGETS.advancedMs,
    fetchFactor: 1,
    backgroundDeadlineMs: 20_000,
    candidateFactor: 3,
    content: 'fetch',
    crossSourceRanking: true,
    answerDeadlineMs: 30_000,
  },
};

/** The profiles with the deployment's latency budgets. */
export function searchDepthProfiles(
  config: Pick<SearchConfig, 'SEARCH_BUDGET_BASIC_MS' | 'SEARCH_HEDGE_BASIC_MS' | 'SEARCH_BUDGET_ADVANCED_MS'>,
): Readonly<Record<SearchDepth, SearchDepthProfile>> {
  return {
    ...SEARCH_DEPTH_PROFILES,
    basic: { ...SEARCH_DEPTH_PROFILES.basic, answerBudgetMs: config.SEARCH_BUDGET_BASIC_MS, hedgeAfterMs: config.SEARCH_HEDGE_BASIC_MS },
    advanced: { ...SEARCH_DEPTH_PROFILES.advanced, answerBudgetMs: config.SEARCH_BUDGET_ADVANCED_MS },
  };
}
