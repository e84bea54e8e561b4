import type { ExtractedLinks, PageWithLinks, WebPage } from '@sift/content-extraction';
import type { FetchedResource as SafeFetchedResource } from '@sift/safe-fetch';
import { RobotsCache } from './robots-cache';

export type FetchPurpose = 'page' | 'robots' | 'sitemap';

export interface FetchResourceOptions {
  /** Time left for this fetch, redirects and body included. */
  deadlineMs: number;
  signal: AbortSignal;
  purpose: FetchPurpose;
}

/** The part of safe-fetch's answer the crawl engine reads (tests serve one); a final non-3xx status is returned, not thrown. */
export type FetchedResource = Pick<SafeFetchedResource, 'finalUrl' | 'status' | 'headers' | 'kind' | 'charset' | 'text' | 'body'>;

export interface PageExtractionOptions {
  /** The page's URL after redirects. */
  baseUrl: string;
  /** The URL the crawl reached the page by (default baseUrl). */
  url?: string;
  includeImages: boolean;
  format: 'markdown' | 'text';
}

/** A page rendered in a browser for `extract_depth: advanced`. */
export interface RenderedResource {
  finalUrl: string;
  status: number;
  html: string;
}

export interface ExtractionRunOptions {
  /**
   * What is left of the crawl's own deadline: extraction stops there (its thread freed for the next crawl) rather
   * than at the extraction deadline, long after the crawl has answered without the page.
   */
  deadlineMs?: number;
}

export interface CrawlEngineSettings {
  /** Pages fetched at the same time over all hosts. */
  concurrency: number;
  maxConcurrentPerHost: number;
  /** robots.txt Crawl-delay is honoured up to this. */
  maxCrawlDelayMs: number;
  /** Upper bound of one page fetch inside the crawl's own deadline. */
  pageTimeoutMs: number;
  /** Further attempts of a page answered 429 or 503, or whose fetch failed. */
  maxRetries: number;
  /** Retry-After above this gives the page up instead of waiting. */
  maxRetryAfterMs: number;
  /** Sitemap files (indexes included) read by one map. */
  maxSitemapFiles: number;
}

export const DEFAULT_CRAWL_ENGINE_SETTINGS: CrawlEngineSettings = {
  concurrency: 8,
  maxConcurrentPerHost: 4,
  maxCrawlDelayMs: 5000,
  pageTimeoutMs: 15_000,
  maxRetries: 2,
  maxRetryAfterMs: 10_000,
  maxSitemapFiles: 20,
};

/** Everything the engine does outside itself, injected so tests and benchmarks can wrap or replace it. */
export interface CrawlDependencies {
  /** Throws ForbiddenTargetError when the egress policy would refuse the root URL. */
  assertAllowedTarget(url: string): Promise<void>;
  /**
   * Whether a URL the crawl found but did not fetch (map's last level, a sitemap's entries) may be returned: the egress
   * policy's address rules apply to what Sift returns as to what it fetches (no internal address, no credentials).
   */
  isReturnableUrl(url: string): boolean;
  /** Throws when no response was obtained (refused destination, network, timeout, unreadable content). */
  fetchResource(url: string, options: FetchResourceOptions): Promise<FetchedResource>;
  /**
   * Content and links of a page from one parse (crawl mode); map mode needs only the links. Asynchronous so the
   * CPU-bound work can run off the crawler's event loop (see ContentParsingPool in @sift/task-pool).
   */
  extractPageWithLinks(html: string, options: PageExtractionOptions, run?: ExtractionRunOptions): Promise<PageWithLinks>;
  extractLinks(html: string, baseUrl: string, run?: ExtractionRunOptions): Promise<ExtractedLinks>;
  /**
   * Renders a page in a browser (JavaScript run, `extract_depth: advanced`); without it advanced crawls fetch like
   * basic ones. Throws like fetchResource when no page was obtained.
   */
  renderPage?(url: string, options: { deadlineMs: number }): Promise<RenderedResource>;
  robotsCache: RobotsCache;
  /**
   * Saves a crawled page (url: as reached, finalUrl: after redirects), with the digest of the response it was extracted
   * from when a later crawl may take it back for the same response (storedPage); failures are the store's concern,
   * not the crawl's.
   */
  storePage?(page: WebPage, sourceFingerprint?: string): Promise<void>;
  /**
   * The page a crawl stored for this URL (as reached) from a response with this digest (sourceFingerprintOf), marked
   * fetched now; null when there is none. With it the crawl reads only the links of an unchanged page.
   */
  storedPage?(url: string, sourceFingerprint: string): Promise<WebPage | null>;
  settings?: Partial<CrawlEngineSettings>;
}
