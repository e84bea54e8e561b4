/** `fast` and `ultra-fast` are beta, latency-oriented depths. `advanced` costs 2 credits, the others 1. */
export const SEARCH_DEPTHS = ['basic', 'advanced', 'fast', 'ultra-fast'] as const;
export type SearchDepth = (typeof SEARCH_DEPTHS)[number];

export const SEARCH_TOPICS = ['general', 'news', 'finance'] as const;
export type SearchTopic = (typeof SEARCH_TOPICS)[number];

/** Long and one-letter forms are both accepted; `normalizeTimeRange` maps them to the long form. */
export const TIME_RANGES = ['day', 'week', 'month', 'year', 'd', 'w', 'm', 'y'] as const;
export type TimeRange = (typeof TIME_RANGES)[number];

/** `true` means `basic`. */
export const INCLUDE_ANSWER_VALUES = [true, false, 'basic', 'advanced'] as const;
export type IncludeAnswer = (typeof INCLUDE_ANSWER_VALUES)[number];

/** `true` means `markdown`. */
export const INCLUDE_RAW_CONTENT_VALUES = [true, false, 'markdown', 'text'] as const;
export type IncludeRawContent = (typeof INCLUDE_RAW_CONTENT_VALUES)[number];

/** The spec's names: `filter` restricts to the listed domains, `boost` also searches the rest of the web. */
export const INCLUDE_DOMAINS_MODES = ['filter', 'boost'] as const;
export type IncludeDomainsMode = (typeof INCLUDE_DOMAINS_MODES)[number];

/**
 * `@tavily/core` types this option as `'restrict' | 'prefer'`, so those client spellings are accepted
 * and normalised to the spec's names on input.
 */
export const INCLUDE_DOMAINS_MODE_ALIASES: Readonly<Record<string, IncludeDomainsMode>> = { restrict: 'filter', prefer: 'boost' };

/** Where a result's published_date was read: the page's markup, the operator's import file, the search engine's listing. */
export const PUBLISHED_DATE_SOURCES = ['page_metadata', 'import', 'upstream'] as const;
export type PublishedDateSource = (typeof PUBLISHED_DATE_SOURCES)[number];

export const SEARCH_LIMITS = {
  maxResults: { min: 0, max: 20, default: 10 },
  // The spec leaves the upper bound open; 5 matches extract and crawl and Tavily's documented maximum.
  chunksPerSource: { min: 1, max: 5, default: 3 },
  includeDomains: 300,
  excludeDomains: 150,
  // Seconds, as extract's timeout: the longest a search may wait for page content.
  timeout: { min: 1, max: 60 },
} as const;

const LONG_TIME_RANGES: Readonly<Record<TimeRange, 'day' | 'week' | 'month' | 'year'>> = {
  day: 'day', week: 'week', month: 'month', year: 'year', d: 'day', w: 'week', m: 'month', y: 'year',
};

/** Maps the one-letter form of `time_range` to its long form. */
export function normalizeTimeRange(timeRange: TimeRange): 'day' | 'week' | 'month' | 'year' {
  return LONG_TIME_RANGES[timeRange];
}
