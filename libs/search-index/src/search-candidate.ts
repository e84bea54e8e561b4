/** Where a page's publish date was read (the search response's published_date_source). */
export type PublishedDateSource = 'page_metadata' | 'import' | 'upstream';

export interface ImageReference {
  url: string;
  alt?: string;
}

/** A result from one provider, before merging. */
export interface SearchCandidate {
  url: string;
  title: string;
  /** The page's full text when the provider holds it, else the upstream snippet (see contentIsSnippet). */
  content: string;
  markdown?: string;
  /** True when content is only an upstream snippet: the page still has to be fetched and chunked. */
  contentIsSnippet: boolean;
  /** Relevance in [0, 1]. */
  score: number;
  /** Which provider found it: "local", "searxng". */
  provider: string;
  /** ISO 8601. */
  publishedDate?: string;
  /** With publishedDate: the page's markup, the operator's import file, or the search engine's listing. */
  publishedDateSource?: PublishedDateSource;
  language?: string;
  images: ImageReference[];
  /**
   * The page's chunks that best match the query, in page order, when the provider chose them (see
   * SearchQuery.chunksPerSource); content is then empty unless the full text was asked for.
   */
  chunks?: string[];
  /** The document store id when the page is stored. */
  documentId?: string;
  /** The stored page's content hash, with documentId: its text may not have been read (chunks instead). */
  contentHash?: string;
}
