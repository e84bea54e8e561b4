export interface ExtractedLink {
  url: string;
  text: string;
  /** About 200 characters of the text around the link, for ranking crawl frontiers. */
  context: string;
  nofollow: boolean;
}

export interface ExtractedImage {
  url: string;
  alt: string;
}

export interface ExtractedContent {
  title: string;
  markdown: string;
  text: string;
  language?: string;
  /** ISO 8601. */
  publishedDate?: string;
  description?: string;
  siteName?: string;
  canonicalUrl?: string;
  favicon?: string;
  images: ExtractedImage[];
  isNewsArticle: boolean;
  /** The page labels itself as adult content; safe search drops it. */
  isAdult: boolean;
  /** html lang, hreflang alternates and og:locale, as found. */
  contentLanguageHints: string[];
}

export interface ExtractOptions {
  baseUrl: string;
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
