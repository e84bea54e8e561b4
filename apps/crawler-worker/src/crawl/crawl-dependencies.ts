import { RobotsCache } from './robots-cache';

export type FetchPurpose = 'page' | 'robots' | 'sitemap';

export interface FetchResourceOptions {
  /** Time left for this fetch, redirects and body included. */
  deadlineMs: number;
  signal: AbortSignal;
  purpose: FetchPurpose;
}

/** A fetched resource as the crawl engine needs it; any final non-3xx status is returned, not thrown. */
export interface FetchedResource {
  finalUrl: string;
  status: number;
  headers: Record<string, string>;
  kind: 'html' | 'xhtml' | 'text' | 'json' | 'pdf' | 'xml';
  text: string;
  body: Buffer;
}

export interface ExtractedPage {
  title: string;
  markdown: string;
  text: string;
  images: string[];
  favicon?: string;
}

export interface PageLink {
  url: string;
  text: string;
  context: string;
  nofollow: boolean;
}

export interface PageLinks {
  /** Absolute URLs, entities decoded and resolved against `<base href>`. */
  links: PageLink[];
  canonicalUrl?: string;
  /** `<meta name="robots" content="nofollow">`: none of the page's links may be followed. */
  robotsNoFollow: boolean;
}

/** The full text of a crawled page, for the document store (not the chunks the caller asked for). */
export interface CrawledDocument {
  url: string;
  title: string;
  content: string;
  format: 'markdown' | 'text';
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
  /** Throws when no response was obtained (refused destination, network, timeout, unreadable content). */
  fetchResource(url: string, options: FetchResourceOptions): Promise<FetchedResource>;
  extractPage(html: string, options: { baseUrl: string; includeImages: boolean }): ExtractedPage;
  extractLinks(html: string, baseUrl: string): PageLinks;
  robotsCache: RobotsCache;
  /** Saves a crawled page in the document store; failures are the store's concern, not the crawl's. */
  storePage?(document: CrawledDocument): Promise<void>;
  settings?: Partial<CrawlEngineSettings>;
}
