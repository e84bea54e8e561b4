import type { BrowserPool } from '@sift/browser';
import { assertPublicDestination, ContentKind, EgressPolicy, FetchError, isReturnableUrl, safeFetch } from '@sift/safe-fetch';
import { parseContentInline } from '@sift/task-pool';
import { CrawlDependencies, CrawlEngineSettings, FetchPurpose } from './crawl-dependencies';
import { ForbiddenTargetError } from './forbidden-target.error';
import { RobotsCache } from './robots-cache';

// Pages are read as HTML or plain text; robots.txt is plain text but often mislabelled; sitemaps are XML.
const ACCEPTED_KINDS: Record<FetchPurpose, ContentKind[]> = {
  page: ['html', 'xhtml', 'text'],
  robots: ['text', 'html', 'xhtml', 'xml', 'json'],
  sitemap: ['xml', 'text'],
};

export interface DefaultCrawlDependencyOptions {
  /** The worker's egress policy, from its validated config. */
  policy: EgressPolicy;
  /** Shared by every crawl of a worker; a new one per call would re-read robots.txt for every job. */
  robotsCache?: RobotsCache;
  storePage?: CrawlDependencies['storePage'];
  storedPage?: CrawlDependencies['storedPage'];
  /** Renders pages of advanced crawls; one pool per worker process, shared by its crawls. */
  browser?: Pick<BrowserPool, 'render'>;
  settings?: Partial<CrawlEngineSettings>;
  /** Extraction off the event loop (one pool per worker process); without it pages are extracted inline. */
  extraction?: Pick<CrawlDependencies, 'extractPageWithLinks' | 'extractLinks'>;
}

/**
 * The production wiring: fetches through @sift/safe-fetch, extraction and links from @sift/content-extraction (in the
 * given pool's threads, or inline).
 */
export function createDefaultCrawlDependencies(options: DefaultCrawlDependencyOptions): CrawlDependencies {
  const policy = options.policy;
  const browser = options.browser;
  const extraction = options.extraction;
  return {
    async assertAllowedTarget(url) {
      try {
        await assertPublicDestination(url, policy);
      } catch (error) {
        // An unresolvable host is not a forbidden one: the crawl runs and reports the root as failed.
        if (error instanceof FetchError && (error.code === 'blocked_address' || error.code === 'invalid_url')) {
          throw new ForbiddenTargetError(url, error.message);
        }
        if (!(error instanceof FetchError)) throw error;
      }
    },
    isReturnableUrl(url) {
      return isReturnableUrl(url, policy);
    },
    async fetchResource(url, { deadlineMs, signal, purpose }) {
      const resource = await safeFetch(url, { policy, deadlineMs, signal, accept: ACCEPTED_KINDS[purpose] });
      return {
        finalUrl: resource.finalUrl,
        status: resource.status,
        headers: resource.headers,
        kind: resource.kind,
        charset: resource.charset,
        text: resource.text,
        body: resource.body,
      };
    },
    extractPageWithLinks: extraction
      ? (html, extractionOptions, run) => extraction.extractPageWithLinks(html, extractionOptions, run)
      : async (html, extractionOptions) => {
          const result = await parseContentInline({ kind: 'page-with-links', html, options: extractionOptions });
          if (result.kind !== 'page-with-links') throw new Error(`page extraction answered with a ${result.kind} result`);
          return { page: result.page, links: result.links };
        },
    extractLinks: extraction
      ? (html, baseUrl, run) => extraction.extractLinks(html, baseUrl, run)
      : async (html, baseUrl) => {
          const result = await parseContentInline({ kind: 'links', html, baseUrl });
          if (result.kind !== 'links') throw new Error(`link extraction answered with a ${result.kind} result`);
          return result.links;
        },
    renderPage: browser
      ? async (url, { deadlineMs }) => {
          const rendered = await browser.render(url, { deadlineMs });
          return { finalUrl: rendered.finalUrl, status: rendered.status, html: rendered.html };
        }
      : undefined,
    robotsCache: options.robotsCache ?? new RobotsCache(),
    storePage: options.storePage,
    storedPage: options.storedPage,
    settings: options.settings,
  };
}
