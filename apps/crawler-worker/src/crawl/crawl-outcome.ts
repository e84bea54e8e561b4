import type { CrawlFailure, CrawlPage } from '@sift/queue-contracts';

export interface CrawlOutcome {
  baseUrl: string;
  /**
   * Crawl mode: each extracted page with its content in the requested format (with instructions its best chunks
   * joined by ` [...] `), in crawl order or, with instructions, by relevance.
   */
  pages: CrawlPage[];
  /** Map mode: the URLs reached by links and sitemaps. */
  urls: string[];
  /** What the gateway bills: pages returned (crawl) or URLs returned (map). */
  successfulPages: number;
  failedPages: number;
  /** The first failed pages, each with its reason and code; robots.txt refusals of the pages it was asked to visit. */
  failures: CrawlFailure[];
  /** In-scope links not followed because robots.txt disallows them. */
  robotsRefused: number;
  /** True when the deadline, a cancellation or the limit stopped the crawl before its frontier was empty. */
  partial: boolean;
}
