import type { BrowserPool } from '@sift/browser';
import { extractLinks, extractPage } from '@sift/content-extraction';
import { assertPublicDestination, ContentKind, EgressPolicy, egressPolicyFromEnv, FetchError, safeFetch } from '@sift/safe-fetch';
import { CrawlDependencies, CrawlEngineSettings, CrawledDocument, FetchPurpose } from './crawl-dependencies';
import { ForbiddenTargetError } from './forbidden-target.error';
import { RobotsCache } from './robots-cache';

// Pages are read as HTML or plain text; robots.txt is plain text but often mislabelled; sitemaps are XML.
const ACCEPTED_KINDS: Record<FetchPurpose, ContentKind[]> = {
  page: ['html', 'xhtml', 'text'],
  robots: ['text', 'html', 'xhtml', 'xml', 'json'],
  sitemap: ['xml', 'text'],
};

export interface DefaultCrawlDependencyOptions {
  policy?: EgressPolicy;
  /** Shared by every crawl of a worker; a new one per call would re-read robots.txt for every job. */
  robotsCache?: RobotsCache;
  storePage?: (document: CrawledDocument) => Promise<void>;
  /** Renders pages of advanced crawls; one pool per worker process, shared by its crawls. */
  browser?: Pick<BrowserPool, 'render'>;
  settings?: Partial<CrawlEngineSettings>;
}

/** The production wiring: fetches through @sift/safe-fetch, extraction and links from @sift/content-extraction. */
export function createDefaultCrawlDependencies(options: DefaultCrawlDependencyOptions = {}): CrawlDependencies {
  const policy = options.policy ?? egressPolicyFromEnv();
  const browser = options.browser;
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
    async fetchResource(url, { deadlineMs, signal, purpose }) {
      const resource = await safeFetch(url, { policy, deadlineMs, signal, accept: ACCEPTED_KINDS[purpose] });
      return {
        finalUrl: resource.finalUrl,
        status: resource.status,
        headers: resource.headers,
        kind: resource.kind,
        text: resource.text,
        body: resource.body,
      };
    },
    extractPageWithLinks(html, { baseUrl, includeImages, format }) {
      // One parse for both: the crawl's largest cost is parsing HTML.
      const { content, links } = extractPage(html, { baseUrl, includeImages, format });
      return {
        page: {
          title: content.title,
          markdown: content.markdown,
          text: content.text,
          images: content.images.map(({ url, alt }) => ({ url, alt })),
          favicon: content.favicon,
          description: content.description,
          language: content.language,
          publishedDate: content.publishedDate,
          isNewsArticle: content.isNewsArticle,
          contentLanguageHints: content.contentLanguageHints,
        },
        links: { links: links.links, canonicalUrl: links.canonicalUrl, robotsNoFollow: links.robotsNoFollow },
      };
    },
    extractLinks(html, baseUrl) {
      const { links, canonicalUrl, robotsNoFollow } = extractLinks(html, baseUrl);
      return { links, canonicalUrl, robotsNoFollow };
    },
    renderPage: browser
      ? async (url, { deadlineMs }) => {
          const rendered = await browser.render(url, { deadlineMs });
          return { finalUrl: rendered.finalUrl, status: rendered.status, html: rendered.html };
        }
      : undefined,
    robotsCache: options.robotsCache ?? new RobotsCache(),
    storePage: options.storePage,
    settings: options.settings,
  };
}
