import type { PageOwner } from '@sift/pages';

export type SearchDepth = 'basic' | 'advanced' | 'fast' | 'ultra-fast';
export type SearchTopic = 'general' | 'news' | 'finance';
export type TimeRange = 'day' | 'week' | 'month' | 'year' | 'd' | 'w' | 'm' | 'y';

/** One search as every provider sees it: the POST /search filters, already validated by the gateway. */
export interface SearchQuery {
  query: string;
  /** How many candidates the provider should return; default 10. */
  maxResults?: number;
  /**
   * How many candidates upstream providers (SearXNG) return, when more than maxResults: extra pages a search fetches
   * so that the first to answer can stand in for slow ones. The local index keeps maxResults.
   */
  upstreamMaxResults?: number;
  depth?: SearchDepth;
  topic?: SearchTopic;
  timeRange?: TimeRange;
  /** YYYY-MM-DD; results published after this day. */
  startDate?: string;
  /** YYYY-MM-DD; results published before this day. */
  endDate?: string;
  /**
   * Pages stating no publish date under a date filter: true keeps them, false drops them. Unset: the local index
   * judges them by when they were fetched, SearXNG's are kept for timeRange and dropped for start/end dates.
   */
  includeUndated?: boolean;
  includeDomains?: string[];
  excludeDomains?: string[];
  /** filter (default): only the listed domains; boost: the listed domains rank higher. */
  includeDomainsMode?: 'filter' | 'boost';
  /** Country name ("united states") or ISO 3166-1 alpha-2 code; boosts pages of that country. */
  country?: string;
  /** ISO 639-1 code or English language name. */
  language?: string;
  filterByLanguage?: boolean;
  exactMatch?: boolean;
  safeSearch?: boolean;
  /** Whether candidates should carry the page's markdown (include_raw_content markdown); default true. */
  includeMarkdown?: boolean;
  /**
   * Providers holding pages cut into chunks return this many best chunks per result (SearchCandidate.chunks),
   * and the full text only when includeText is set or the page has no chunks yet. Unset: full text, no chunks.
   */
  chunksPerSource?: number;
  /** With chunksPerSource: return the full text as well (raw content, cross-source chunk ranking). */
  includeText?: boolean;
  /**
   * Who searches: the local index returns the shared pages plus this account's own (PageRepository's visibility
   * rule); unset, keyless or the operator: shared pages only.
   */
  viewer?: PageOwner;
  /** Time left for the whole search; upstream providers stop waiting after it. */
  deadlineMs?: number;
  /**
   * Rank by meaning as well as by words: the local index fuses its pages nearest the query's vector (the operator's
   * embedding model, EMBEDDINGS_*) with its words' ranking. Default: at every depth but ultra-fast. Without a model
   * configured it changes nothing.
   */
  dense?: boolean;
}
