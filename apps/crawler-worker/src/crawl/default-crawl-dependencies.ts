import type { BrowserPool } from '@sift/browser';
import { inlineContentParser, PageAcquisition, type PageAcquisitionOptions, type PageOwner } from '@sift/pages';
import { assertPublicDestination, ContentKind, EgressPolicy, FetchError, isReturnableUrl, safeFetch } from '@sift/safe-fetch';
import { CrawlDependencies, CrawlEngineSettings, FetchPurpose } from './crawl-dependencies';
import { ForbiddenTargetError } from './forbidden-target.error';
import { HostScheduler } from './host-scheduler';
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
  /** Shared by every crawl of a worker; without one each set of dependencies has its own, with the default settings. */
  hostScheduler?: HostScheduler;
  /** Renders the pages that need it; one pool per worker process, shared by its crawls. Absent: nothing is rendered. */
  browser?: Pick<BrowserPool, 'openSession'>;
  settings?: Partial<CrawlEngineSettings>;
  /** Parsing off the event loop (one pool per worker process); without it pages are parsed inline. */
  extraction?: PageAcquisitionOptions['parser'];
  /** The page store and whose crawl this is; without a store nothing is stored or taken back. */
  store?: PageAcquisitionOptions['store'];
  owner?: PageOwner;
  onAcquired?: PageAcquisitionOptions['onAcquired'];
  onError?: PageAcquisitionOptions['onError'];
}

/**
 * The production wiring: fetches through @sift/safe-fetch, pages through the page pipeline (@sift/pages) parsed in
 * the given pool's threads (or inline), rendered in the given browser.
 */
export function createDefaultCrawlDependencies(options: DefaultCrawlDependencyOptions): CrawlDependencies {
  const policy = options.policy;
  const browser = options.browser;
  const owner = options.owner ?? 'operator';
  // The engine passes its own fetch and render to every page: the pipeline's defaults are never used by a crawl.
  const acquisition = new PageAcquisition({
    policy,
    parser: options.extraction ?? inlineContentParser,
    ...(options.store ? { store: options.store } : {}),
    ...(options.onAcquired ? { onAcquired: options.onAcquired } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });
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
        mimeType: resource.mimeType,
        charset: resource.charset,
        text: resource.text,
        body: resource.body,
      };
    },
    acquire: (request) => acquisition.acquire({ ...request, owner, source: 'crawl' }),
    openRenderer: browser
      ? () => {
          const session = browser.openSession();
          return {
            async render(url, { deadlineMs }) {
              const rendered = await session.render(url, { deadlineMs });
              return { finalUrl: rendered.finalUrl, status: rendered.status, html: rendered.html, title: rendered.title };
            },
            close: () => session.close(),
          };
        }
      : undefined,
    robotsCache: options.robotsCache ?? new RobotsCache(),
    hostScheduler: options.hostScheduler ?? new HostScheduler(),
    settings: options.settings,
  };
}
