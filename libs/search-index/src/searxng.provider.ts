import { isReturnableUrl, OperatorEndpoint, safeFetch } from '@sift/safe-fetch';
import type { EgressPolicy, OperatorEndpointOptions } from '@sift/safe-fetch';
import { hostMatchesAny, normalizeDomainEntry } from './domain-match';
import { languageCodeOf } from '@sift/pages';
import type { SearchCandidate } from './search-candidate';
import type { SearchProvider } from './search-provider';
import type { SearchQuery } from './search-query';
import { isInsideWindow, timeWindowOf } from './time-window';

export interface SearxngOptions {
  /** SEARXNG_URL, e.g. http://searxng:8080 */
  baseUrl: string;
  /**
   * Egress policy for everything but the SearXNG host itself (the app's FETCH_ALLOW_CIDRS): also what decides which of
   * its results' URLs may be returned.
   */
  policy: EgressPolicy;
  /** Used when the query carries no deadline. */
  timeoutMs?: number;
  /** How the SearXNG host is re-resolved (default: the system resolver, every few seconds). */
  endpoint?: OperatorEndpointOptions;
}

/** One element of SearXNG's `results` (format=json). */
interface SearxngResult {
  url?: string;
  title?: string;
  content?: string;
  engine?: string;
  publishedDate?: string | null;
  score?: number;
  category?: string;
  img_src?: string;
  thumbnail?: string;
}

interface SearxngResponse {
  query?: string;
  results?: SearxngResult[];
  number_of_results?: number;
}

const TIME_RANGES: Record<string, string> = { day: 'day', d: 'day', week: 'week', w: 'week', month: 'month', m: 'month', year: 'year', y: 'year' };

/** The request SearXNG's JSON API gets for a query: topic, time range, language and safe search mapped. */
export function searxngSearchUrl(baseUrl: string, query: SearchQuery): string {
  const url = new URL('search', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  let text = query.query;
  const include = query.includeDomainsMode === 'boost' ? [] : (query.includeDomains ?? []).map(normalizeDomainEntry);
  // Most engines behind SearXNG understand site:; with several domains the results are filtered here instead.
  if (include.length === 1) text = `${text} site:${include[0]}`;
  url.searchParams.set('q', text);
  url.searchParams.set('format', 'json');
  url.searchParams.set('pageno', '1');
  url.searchParams.set('categories', query.topic === 'news' ? 'news' : 'general');
  if (query.timeRange) url.searchParams.set('time_range', TIME_RANGES[query.timeRange]);
  const language = languageCodeOf(query.language);
  if (language) url.searchParams.set('language', language);
  url.searchParams.set('safesearch', query.safeSearch ? '2' : '0');
  return url.toString();
}

function publishedDateOf(result: SearxngResult): Date | undefined {
  if (!result.publishedDate) return undefined;
  const date = new Date(result.publishedDate);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * Web results from a SearXNG instance. Its snippets are only a start: candidates are marked
 * contentIsSnippet so the search pipeline fetches and chunks the pages itself within the depth's deadline.
 */
export class SearxngProvider implements SearchProvider {
  readonly name = 'searxng';
  private readonly endpoint: OperatorEndpoint;

  constructor(private readonly options: SearxngOptions) {
    this.endpoint = new OperatorEndpoint(options.baseUrl, options.policy, options.endpoint);
  }

  async search(query: SearchQuery): Promise<SearchCandidate[]> {
    const response = await safeFetch(searxngSearchUrl(this.options.baseUrl, query), {
      policy: await this.endpoint.policy(),
      deadlineMs: query.deadlineMs ?? this.options.timeoutMs ?? 5000,
      headers: { accept: 'application/json' },
      accept: ['json'],
    });
    if (response.status !== 200) {
      throw new Error(`SearXNG answered ${response.status}`);
    }
    const body = JSON.parse(response.text) as SearxngResponse;
    return this.toCandidates(query, body.results ?? []);
  }

  private toCandidates(query: SearchQuery, results: SearxngResult[]): SearchCandidate[] {
    const include =
      query.includeDomainsMode !== 'boost' && query.includeDomains?.length ? query.includeDomains.map(normalizeDomainEntry) : undefined;
    const exclude = query.excludeDomains?.length ? query.excludeDomains.map(normalizeDomainEntry) : undefined;
    const window = timeWindowOf(query);
    // SearXNG applies time_range itself; explicit start/end dates it does not know, so undated results go unless the
    // caller chose (includeUndated).
    const dateFilter = Boolean(query.timeRange || query.startDate || query.endDate);
    const needsDate = query.includeUndated === undefined ? Boolean(query.startDate || query.endDate) : dateFilter && !query.includeUndated;
    const topScore = Math.max(0, ...results.map((result) => result.score ?? 0));
    const candidates: SearchCandidate[] = [];
    results.forEach((result, rank) => {
      // Engines index what they can reach, and an instance may run engines of an intranet: a URL whose host the
      // egress policy refuses (an internal address in any notation, localhost, credentials, another scheme) is not
      // handed to the caller, who would take it for a page on the web. The base policy, not the endpoint's, which
      // also allows the SearXNG host's own addresses.
      if (!result.url || !isReturnableUrl(result.url, this.options.policy)) return;
      const host = new URL(result.url).hostname;
      if (include && !hostMatchesAny(host, include)) return;
      if (exclude && hostMatchesAny(host, exclude)) return;
      const published = publishedDateOf(result);
      if (published ? !isInsideWindow(published, window) : needsDate) return;
      // SearXNG's score is unbounded (engine weight × positions); relative to the best result it is in [0, 1].
      const score = topScore > 0 && result.score !== undefined ? result.score / topScore : 1 / (1 + rank);
      const candidate: SearchCandidate = {
        url: result.url,
        title: result.title ?? '',
        content: result.content ?? '',
        contentIsSnippet: true,
        score,
        provider: this.name,
        images: result.img_src && isReturnableUrl(result.img_src, this.options.policy) ? [{ url: result.img_src }] : [],
      };
      if (published) {
        candidate.publishedDate = published.toISOString();
        candidate.publishedDateSource = 'upstream';
      }
      candidates.push(candidate);
    });
    return candidates.slice(0, query.upstreamMaxResults ?? query.maxResults ?? 10);
  }
}
