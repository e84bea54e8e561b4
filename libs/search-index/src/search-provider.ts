import type { SearchCandidate } from './search-candidate';
import type { SearchQuery } from './search-query';

/** A source of search results: the local index, SearXNG, … The gateway queries several and merges them. */
export interface SearchProvider {
  readonly name: string;
  search(query: SearchQuery): Promise<SearchCandidate[]>;
}
