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

export interface PageImage {
  url: string;
  alt: string;
}

export interface ExtractedPage {
  title: string;
  /** With format "text" the markdown conversion is skipped and this holds the plain text. */
  markdown: string;
  text: string;
  images: PageImage[];
  favicon?: string;
  description?: string;
  language?: string;
  /** ISO 8601, only when the page states one. */
  publishedDate?: string;
  isNewsArticle: boolean;
  /** The page labels itself as adult content. */
  isAdult: boolean;
  /** html lang, hreflang alternates and og:locale, as found. */
  contentLanguageHints: string[];
}

export interface PageExtractionOptions {
  baseUrl: string;
  includeImages: boolean;
  format: 'markdown' | 'text';
}

/** A page rendered in a browser for `extract_depth: advanced`. */
export interface RenderedResource {
  finalUrl: string;
  status: number;
  html: string;
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

/** The full extraction of a crawled page, for the document store (not the chunks the caller asked for). */
export interface CrawledDocument {
  /** The URL the crawl reached the page by. */
  url: string;
  /** After redirects. */
  finalUrl: string;
  title: string;
  /** Absent when the crawl asked for text only (the markdown conversion was skipped). */
  markdown?: string;
  text: string;
  description?: string;
  language?: string;
  publishedDate?: string;
  images: PageImage[];
  isNews: boolean;
  isUnsafe: boolean;
  countryHints: string[];
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
  /**
   * Content and links of a page from one parse (crawl mode); map mode needs only the links. Asynchronous so the
   * CPU-bound work can run off the crawler's event loop (see PageExtractionPool).
   */
  extractPageWithLinks(html: string, options: PageExtractionOptions): Promise<{ page: ExtractedPage; links: PageLinks }>;
  extractLinks(html: string, baseUrl: string): Promise<PageLinks>;
  /**
   * Renders a page in a browser (JavaScript run, `extract_depth: advanced`); without it advanced crawls fetch like
   * basic ones. Throws like fetchResource when no page was obtained.
   */
  renderPage?(url: string, options: { deadlineMs: number }): Promise<RenderedResource>;
  robotsCache: RobotsCache;
  /** Saves a crawled page in the document store; failures are the store's concern, not the crawl's. */
  storePage?(document: CrawledDocument): Promise<void>;
  settings?: Partial<CrawlEngineSettings>;
}
