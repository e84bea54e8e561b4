export interface CrawlPageResult {
  url: string;
  /** Page content in the requested format, or with instructions its best chunks joined by ` [...] `. */
  rawContent: string;
  images?: string[];
  favicon?: string;
  title?: string;
}

export interface CrawlOutcome {
  baseUrl: string;
  /** Crawl mode: the extracted pages, in crawl order or, with instructions, by relevance. */
  pages: CrawlPageResult[];
  /** Map mode: the URLs reached by links and sitemaps. */
  urls: string[];
  /** What the gateway bills: pages returned (crawl) or URLs returned (map). */
  successfulPages: number;
  failedPages: number;
  /** True when the deadline, a cancellation or the limit stopped the crawl before its frontier was empty. */
  partial: boolean;
}
