import type { AcquiredPage, PageRequest } from '@sift/pages';
import type { FetchedResource as SafeFetchedResource } from '@sift/safe-fetch';
import type { HostScheduler } from './host-scheduler';
import { RobotsCache } from './robots-cache';

export type FetchPurpose = 'page' | 'robots' | 'sitemap';

export interface FetchResourceOptions {
  /** Time left for this fetch, redirects and body included. */
  deadlineMs: number;
  signal: AbortSignal;
  purpose: FetchPurpose;
}

/** The part of safe-fetch's answer the crawl engine reads (tests serve one); a final non-3xx status is returned, not thrown. */
export type FetchedResource = Pick<SafeFetchedResource, 'finalUrl' | 'status' | 'headers' | 'kind' | 'mimeType' | 'charset' | 'text' | 'body'>;

/** A page rendered in a browser: at advanced depth, or because its response is a script's shell. */
export interface RenderedResource {
  finalUrl: string;
  status: number;
  html: string;
  title: string;
}

/** Renders one crawl's pages in a browser. */
export interface CrawlRenderer {
  render(url: string, options: { deadlineMs: number }): Promise<RenderedResource>;
  close(): Promise<void>;
}

/** What the crawl asks the page pipeline for one page; the owner and the producer are the dependencies' own. */
export type CrawlPageRequest = Omit<PageRequest, 'owner' | 'source'>;

export interface CrawlEngineSettings {
  /**
   * Pages in progress at once over all hosts beyond the host scheduler's ceiling: a crawl runs this many plus the
   * ceiling, so one host can have its ceiling of fetches in flight while this many pages are extracted.
   */
  concurrency: number;
  /**
   * Pages in progress beyond the ceiling and `concurrency`, fetched only while the bytes of the crawl's fetched pages
   * not yet extracted are under `backlogBytes`: on a slow or busy machine extraction falls behind the host's pace, and
   * the host's places would otherwise wait on the extraction threads instead of on the host.
   */
  backlogPages: number;
  /** Bytes of fetched pages awaiting extraction above which the backlog pages wait before their fetch. */
  backlogBytes: number;
  /** Upper bound of one page fetch inside the crawl's own deadline. */
  pageTimeoutMs: number;
  /** Further attempts of a page whose fetch failed (no response: a timeout, a reset). */
  maxRetries: number;
  /**
   * Further attempts of a page answered 429 or 503, each after the wait its host asked for (Retry-After, else 1, 2, 4…
   * seconds): a rate-limited host is saying when to come back, not that the page is gone, so its pages are asked again
   * more often than a failed fetch is, while the wait fits maxRetryAfterMs and the crawl's deadline.
   */
  maxThrottledRetries: number;
  /** Retry-After above this gives the page up instead of waiting. */
  maxRetryAfterMs: number;
  /** Sitemap files (indexes included) read by one map. */
  maxSitemapFiles: number;
  /**
   * Pages one crawl renders in the browser at once: below the worker's browser pages (BROWSER_PAGES), so one site of
   * client-rendered pages cannot take every page of the browser from the worker's other crawls.
   */
  maxRenderingPages: number;
}

export const DEFAULT_CRAWL_ENGINE_SETTINGS: CrawlEngineSettings = {
  concurrency: 8,
  backlogPages: 40,
  backlogBytes: 16 * 1024 * 1024,
  pageTimeoutMs: 15_000,
  maxRetries: 2,
  maxThrottledRetries: 5,
  maxRetryAfterMs: 10_000,
  maxSitemapFiles: 20,
  maxRenderingPages: 2,
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
   * One page through the page pipeline (@sift/pages), stored as this crawl's owner's: fetched with the request's
   * `fetch` (the engine's, through its politeness per host), parsed once with its links, judged (a block or challenge
   * page fails), rendered when it needs it with the request's `render`, stored. Throws the page's failure; null when
   * the request's `admit` dropped it.
   */
  acquire(request: CrawlPageRequest): Promise<AcquiredPage | null>;
  /**
   * The crawl's renderer, opened at its first page that needs a browser and closed when the crawl ends: its pages share
   * one browser context. Without it no page is rendered (a client-rendered page then fails as empty).
   */
  openRenderer?(): CrawlRenderer;
  robotsCache: RobotsCache;
  /** Politeness per host; shared by every crawl of a worker as robotsCache is, so two crawls of one site share its limit. */
  hostScheduler: HostScheduler;
  settings?: Partial<CrawlEngineSettings>;
}
