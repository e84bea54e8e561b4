import type { CrawlPage } from '@sift/queue-contracts';

export type CrawlMode = 'crawl' | 'map';

/** One crawl or map as the worker runs it; mirrors spec POST /crawl with camel-cased fields. */
export interface CrawlRequest {
  url: string;
  instructions?: string;
  /** 1 to 5; only used with instructions. */
  chunksPerSource: number;
  /** 1 to 5; depth 1 is the root and the pages it links to. */
  maxDepth: number;
  /** 1 to 500 links followed per page. */
  maxBreadth: number;
  /** Total pages processed before stopping. */
  limit: number;
  selectPaths?: string[];
  selectDomains?: string[];
  excludePaths?: string[];
  excludeDomains?: string[];
  allowExternal: boolean;
  includeImages: boolean;
  extractDepth: 'basic' | 'advanced';
  format: 'markdown' | 'text';
  includeFavicon: boolean;
  /** Deadline of the whole crawl; what was gathered until then is returned as a partial result. */
  timeoutMs: number;
  mode: CrawlMode;
  /**
   * Called with each page of a crawl without instructions as it is collected (and in the outcome as it is then), with
   * its place in crawl order: the outcome's pages are those pages in that order. With instructions a page's content
   * and place are known only at the end, and it is not called.
   */
  onPage?: (page: CrawlPage, visitOrder: number) => void;
}
