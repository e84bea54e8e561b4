import type { WebPage } from '@sift/content-extraction';
import type { UrlFailureCode } from '@sift/queue-contracts';
import type { PublishedDateSource, SearchCandidate } from '@sift/search-index';

/** One search candidate with the page the pipeline could get for it within the depth's rules. */
export interface SourceContent {
  candidate: SearchCandidate;
  /**
   * The page: stored or fetched, or built from the candidate itself (index text, or only the upstream snippet:
   * see snippetOnly). Its text is what chunks are cut from.
   */
  page: WebPage;
  /** True when neither the store nor a fetch gave the page: its text is the upstream snippet. */
  snippetOnly: boolean;
  /**
   * The chunks to show, already chosen for the query by the local index (in page order); the page's text is then
   * empty unless raw content or cross-source ranking needs it.
   */
  chunks?: string[];
  /** The local index applied every content filter (safe search, exact match, language) in its own query. */
  filteredAtSource: boolean;
  /** Its page was still loading when the latency budget ran out: the snippet stands in, the fetch goes on into the store. */
  loading?: boolean;
  /** Its page could not be fetched: the snippet stands in. */
  fetchFailed?: boolean;
  /** With fetchFailed, when a fetch was tried: why it failed (the request log's detail, the depth's warning). */
  fetchFailure?: { error: string; errorCode: UrlFailureCode };
  /** With page.publishedDate: where that date was read. */
  publishedDateSource?: PublishedDateSource;
}
