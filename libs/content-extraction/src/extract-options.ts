export interface ExtractedLink {
  url: string;
  text: string;
  /** About 200 characters of the text around the link, for ranking crawl frontiers. */
  context: string;
  nofollow: boolean;
}

export interface ExtractOptions {
  /** The page's URL after redirects: relative URLs resolve against it. */
  baseUrl: string;
  /** The URL as requested, when a redirect led to baseUrl (default baseUrl). */
  url?: string;
  /** Collect `images` (default true). */
  includeImages?: boolean;
  /**
   * "markdown" (default) converts the content to markdown; "text" skips that conversion, the slower half of the
   * work, and `markdown` then holds the plain text.
   */
  format?: 'markdown' | 'text';
}

export interface ExtractedLinks {
  links: ExtractedLink[];
  canonicalUrl?: string;
  baseHref?: string;
  robotsNoFollow: boolean;
}
