import type { ImageReference, SearchCandidate } from '@sift/search-index';

/** One search candidate with the content the pipeline could get for it within the depth's rules. */
export interface SourceContent {
  candidate: SearchCandidate;
  title: string;
  /** Plain text that chunks are cut from: the page's text, or only the upstream snippet (see snippetOnly). */
  text: string;
  markdown: string;
  /** True when neither the store nor a fetch gave the page: text is the upstream snippet. */
  snippetOnly: boolean;
  /**
   * The chunks to show, already chosen for the query by the local index (in page order); text is then empty
   * unless raw content or cross-source ranking needs it.
   */
  chunks?: string[];
  /** The local index applied every content filter (safe search, exact match, language) in its own query. */
  filteredAtSource: boolean;
  language?: string;
  publishedDate?: string;
  images: ImageReference[];
  favicon?: string;
  /** Stored as unsafe (adult) content: dropped under safe_search. */
  unsafe: boolean;
}
