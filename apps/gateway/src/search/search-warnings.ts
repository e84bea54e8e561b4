import { isRetryableFailure } from '@sift/queue-contracts';
import type { ResolvedSearch } from './search-parameters';
import type { SourceContent } from './source-content';

/**
 * What a date filter did with pages that state no publish date, when the caller left include_undated out (a caller
 * who chose knows): the shown results it kept undated, and the web results it drops under explicit dates.
 */
export function undatedWarnings(search: ResolvedSearch, shown: readonly SourceContent[], upstreamAsked: boolean): string[] {
  if (search.includeUndated !== undefined) return [];
  const filters = [search.timeRange ? 'time_range' : '', search.startDate ? 'start_date' : '', search.endDate ? 'end_date' : ''].filter(Boolean);
  if (filters.length === 0) return [];
  const warnings: string[] = [];
  const undated = shown.filter((source) => !source.page.publishedDate);
  if (undated.length > 0) {
    warnings.push(
      `${undated.length === 1 ? '1 result states' : `${undated.length} results state`} no publish date and ${undated.length === 1 ? 'was' : 'were'} kept by ` +
        `${filters.join(' and ')}: a stored page is judged by the date Sift fetched it, a web result by the search engine's own date filter. ` +
        'Send include_undated: false to keep only pages with a publish date.',
    );
  }
  if (upstreamAsked && (search.startDate || search.endDate)) {
    warnings.push('Web results that state no publish date were left out by start_date/end_date. Send include_undated: true to keep them.');
  }
  return warnings;
}

/**
 * Results shown by their search-engine snippet because their page could not be fetched: at a depth that reads pages,
 * the depth fell back to fast's content for them. Names each URL with its failure code.
 */
export function fetchFailureWarning(search: ResolvedSearch, shown: readonly SourceContent[], fetchedAny: boolean): string | undefined {
  const failed = shown.filter((source) => source.fetchFailed && source.fetchFailure);
  if (failed.length === 0) return undefined;
  const listed = failed.map((source) => `${source.candidate.url}: ${source.fetchFailure?.errorCode}`).join(', ');
  const retryable = failed.filter((source) => source.fetchFailure && isRetryableFailure(source.fetchFailure.errorCode)).length;
  const lead = fetchedAny
    ? `${failed.length === 1 ? '1 result shows' : `${failed.length} results show`} the search engine's snippet instead of page content: its page could not be fetched`
    : `search_depth ${search.depth} fell back to the search engine's snippets: every page fetch failed`;
  return `${lead} (${listed}).${retryable > 0 ? ` ${retryable} of these failures may pass if retried.` : ''}`;
}
