import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GitDocsSite, GIT_DOCS_SITE_ROOT, startGitDocsSite } from '@sift/testing';
import { CrawlDependencies } from './crawl-dependencies';
import { runCrawl } from './crawl-engine';
import { CrawlRequest } from './crawl-request';
import { createDefaultCrawlDependencies } from './default-crawl-dependencies';
import { ForbiddenTargetError } from './forbidden-target.error';
import { CHUNK_SEPARATOR } from '@sift/ranking';

interface CrawlExpectations {
  reachable_pages: string[];
  pages_by_depth: Record<string, number>;
  unreachable_from_seed_but_in_sitemap: string[];
  reachable_from_seed_when_obeying_robots_txt_disallow_technical: number;
  html_pages_in_sitemap: number;
}

const expectations = JSON.parse(
  readFileSync(path.join(GIT_DOCS_SITE_ROOT, '..', 'crawl-expectations.json'), 'utf8'),
) as CrawlExpectations;
const isTechnical = (page: string): boolean => page.startsWith('technical/');
const loopbackPolicy = { allowCidrs: ['127.0.0.1/32'] };
// A full crawl extracts 219 pages, some of them several hundred kilobytes of HTML.
const CRAWL_TEST_TIMEOUT_MS = 150_000;
jest.setTimeout(CRAWL_TEST_TIMEOUT_MS);

function crawlRequest(site: GitDocsSite, overrides: Partial<CrawlRequest> = {}): CrawlRequest {
  return {
    url: `${site.origin}/index.html`,
    chunksPerSource: 3,
    maxDepth: 2,
    maxBreadth: 500,
    limit: 1000,
    allowExternal: false,
    includeImages: false,
    extractDepth: 'basic',
    format: 'markdown',
    includeFavicon: false,
    timeoutMs: CRAWL_TEST_TIMEOUT_MS - 10_000,
    mode: 'crawl',
    ...overrides,
  };
}

/** The real dependencies, with every URL the engine asks for recorded. */
function recordingDependencies(requested: string[]): CrawlDependencies {
  const real = createDefaultCrawlDependencies({ policy: loopbackPolicy });
  return {
    ...real,
    fetchResource: (url, options) => {
      requested.push(url);
      return real.fetchResource(url, options);
    },
  };
}

const pagePath = (site: GitDocsSite, url: string): string => url.slice(`${site.origin}/`.length);
const pageHits = (site: GitDocsSite, prefix: string): number =>
  Array.from(site.hits.entries())
    .filter(([requestPath]) => requestPath.startsWith(prefix))
    .reduce((sum, [, count]) => sum + count, 0);

describe('runCrawl on the Git documentation site', () => {
  let site: GitDocsSite;

  beforeEach(async () => {
    site = await startGitDocsSite();
  });

  afterEach(async () => {
    await site.close();
  });

  it('reaches every page within depth 2 that robots.txt allows, follows no external link and drops identical content', async () => {
    const requested: string[] = [];
    const outcome = await runCrawl(crawlRequest(site), recordingDependencies(requested));

    // index.html is byte-identical to git.html, so git.html is fetched but reported once, as the seed.
    const expected = expectations.reachable_pages.filter((page) => !isTechnical(page) && page !== 'git.html');
    expect(expected).toHaveLength(expectations.reachable_from_seed_when_obeying_robots_txt_disallow_technical - 1);
    expect(outcome.pages.map((page) => pagePath(site, page.url)).sort()).toEqual(expected.sort());
    expect(site.hits.get('/git.html')).toBe(1);
    expect(outcome).toMatchObject({ successfulPages: expected.length, failedPages: 0, partial: false });
    expect(outcome.pages.every((page) => page.rawContent.length > 0)).toBe(true);
    expect(outcome.pages.find((page) => page.url.endsWith('/git-web--browse.html'))).toBeDefined();

    expect(pageHits(site, '/technical/')).toBe(0);
    expect(site.hits.get('/robots.txt')).toBe(1);
    expect(requested.every((url) => url.startsWith(`${site.origin}/`))).toBe(true);
  });

  it('stops at depth 1: the root and the pages it links to', async () => {
    const outcome = await runCrawl(crawlRequest(site, { maxDepth: 1 }), createDefaultCrawlDependencies({ policy: loopbackPolicy }));
    // Depth 1 holds 197 pages; two are under /technical/ and git.html repeats the seed.
    expect(pageHits(site, '/technical/')).toBe(0);
    expect(outcome.pages).toHaveLength(expectations.pages_by_depth['0'] + expectations.pages_by_depth['1'] - 2 - 1);
    expect(site.hits.has('/git-bisect-lk2009.html')).toBe(false);
  });

  it('maps the links and the sitemap, finding the pages only the sitemap lists', async () => {
    const startedAt = performance.now();
    const outcome = await runCrawl(
      crawlRequest(site, { mode: 'map', maxDepth: 1 }),
      createDefaultCrawlDependencies({ policy: loopbackPolicy }),
    );
    const mapped = outcome.urls.map((url) => pagePath(site, url));

    const sitemapOnly = expectations.unreachable_from_seed_but_in_sitemap.filter((page) => !isTechnical(page));
    expect(sitemapOnly.length).toBeGreaterThan(10);
    expect(mapped).toEqual(expect.arrayContaining(sitemapOnly));
    expect(mapped.filter(isTechnical)).toEqual([]);
    const technicalPages = new Set([...expectations.reachable_pages, ...expectations.unreachable_from_seed_but_in_sitemap].filter(isTechnical));
    expect(new Set(mapped).size).toBe(expectations.html_pages_in_sitemap - technicalPages.size);
    expect(outcome.pages).toEqual([]);
    expect(outcome.successfulPages).toBe(mapped.length);
    // Map reads the root and the sitemap, not every page it lists.
    expect(site.hits.get('/git-add.html')).toBeUndefined();
    expect(performance.now() - startedAt).toBeLessThan(5000);
  });

  it('processes exactly `limit` pages', async () => {
    const outcome = await runCrawl(crawlRequest(site, { limit: 10 }), createDefaultCrawlDependencies({ policy: loopbackPolicy }));
    expect(outcome.pages).toHaveLength(10);
    expect(outcome.successfulPages).toBe(10);
    expect(outcome.partial).toBe(true);
  });

  it('follows exactly `max_breadth` links per page, in document order', async () => {
    const outcome = await runCrawl(
      crawlRequest(site, { maxDepth: 1, maxBreadth: 5 }),
      createDefaultCrawlDependencies({ policy: loopbackPolicy }),
    );
    expect(outcome.pages.map((page) => pagePath(site, page.url))).toEqual([
      'index.html',
      'gittutorial.html',
      'giteveryday.html',
      'user-manual.html',
      'gitcli.html',
      'git-version.html',
    ]);
    expect(outcome.partial).toBe(false);
  });

  it('returns what it gathered when the deadline passes', async () => {
    await site.close();
    site = await startGitDocsSite({ responseDelayMs: 100 });
    const timeoutMs = 800;
    const startedAt = performance.now();
    const outcome = await runCrawl(crawlRequest(site, { timeoutMs }), createDefaultCrawlDependencies({ policy: loopbackPolicy }));
    const elapsedMs = performance.now() - startedAt;

    expect(outcome.partial).toBe(true);
    expect(outcome.pages.length).toBeGreaterThan(0);
    expect(outcome.pages.length).toBeLessThan(100);
    expect(outcome.pages[0].url).toBe(`${site.origin}/index.html`);
    expect(elapsedMs).toBeGreaterThanOrEqual(timeoutMs - 50);
    expect(elapsedMs).toBeLessThan(timeoutMs + 1000);
  });

  it('ranks the merge documentation first for instructions about merging branches', async () => {
    const outcome = await runCrawl(
      crawlRequest(site, { instructions: 'How do I merge branches together?', limit: 40, chunksPerSource: 3 }),
      createDefaultCrawlDependencies({ policy: loopbackPolicy }),
    );
    const ranked = outcome.pages.map((page) => pagePath(site, page.url));
    expect(ranked.slice(0, 3)).toContain('git-merge.html');
    const mergePage = outcome.pages.find((page) => page.url.endsWith('/git-merge.html'));
    const chunks = mergePage?.rawContent.split(CHUNK_SEPARATOR) ?? [];
    expect(chunks).toHaveLength(3);
    expect(chunks.every((chunk) => chunk.length <= 500)).toBe(true);
    expect(mergePage?.rawContent.toLowerCase()).toContain('merge');
  });

  it('refuses a root the egress policy forbids without a single request to it', async () => {
    const blocked = createDefaultCrawlDependencies({ policy: { allowCidrs: [] } });
    await expect(runCrawl(crawlRequest(site), blocked)).rejects.toBeInstanceOf(ForbiddenTargetError);
    await expect(runCrawl(crawlRequest(site, { mode: 'map' }), blocked)).rejects.toBeInstanceOf(ForbiddenTargetError);

    const otherLoopback = site.origin.replace('127.0.0.1', '127.0.0.2');
    const loopbackOnly = createDefaultCrawlDependencies({ policy: loopbackPolicy });
    await expect(runCrawl(crawlRequest(site, { url: `${otherLoopback}/index.html` }), loopbackOnly)).rejects.toBeInstanceOf(
      ForbiddenTargetError,
    );
    expect(site.hits.size).toBe(0);
  });
});
