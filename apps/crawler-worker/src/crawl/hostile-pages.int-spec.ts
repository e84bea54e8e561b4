import type { ServerResponse } from 'node:http';
import { type FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { ContentParsingPool } from '@sift/task-pool';
import { binaryNoise, linkHeavyHtml, loopHoldDuring } from '@sift/testing';
import { runCrawl } from './crawl-engine';
import type { CrawlRequest } from './crawl-request';
import { createDefaultCrawlDependencies } from './default-crawl-dependencies';

// Hostile pages in a crawl (issue #16): each fails alone, within the extraction deadline, and the crawl returns the
// rest while the crawler's event loop keeps turning.
jest.setTimeout(60_000);

const policy = { allowCidrs: ['127.0.0.1/32'] };
const EXTRACTION_DEADLINE_MS = 3_000;
// For the binary page: a deadline it would surely hit if it were parsed, far above a crawl's time on a busy machine.
const GENEROUS_DEADLINE_MS = 10_000;

const html = (body: string) => (_request: unknown, response: ServerResponse) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(body);
};

const article = (title: string, links = '') =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>
<p>${'Tide tables list the height of the water for every hour of the day at the harbour mouth. '.repeat(5)}</p>${links}</article></body></html>`;

describe('a crawl over hostile pages', () => {
  let site: FixtureServer;
  let extraction: ContentParsingPool;
  let generousExtraction: ContentParsingPool;

  beforeAll(async () => {
    site = await startFixtureServer({
      '/index.html': html(article('Harbour index', '<a href="/crafted.html">crafted</a> <a href="/tides.html">tides</a>')),
      '/noisy-index.html': html(article('Noisy index', '<a href="/noise.html">noise</a> <a href="/tides.html">tides</a>')),
      '/tides.html': html(article('Tides')),
      // 2 MB of random bytes served as HTML.
      '/noise.html': (_request: unknown, response: ServerResponse) => {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end(binaryNoise(2 * 1024 * 1024));
      },
      // Markup that takes the HTML extractor far longer than its deadline.
      '/crafted.html': html(`<html><body>${'<script>'.repeat(100_000)}`),
      '/links-20k.html': html(linkHeavyHtml(20_000)),
      '/links-100k.html': html(linkHeavyHtml(100_000)),
    });
    extraction = await ContentParsingPool.start({ threads: 1, deadlineMs: EXTRACTION_DEADLINE_MS, maxHeapMb: 256, maxQueue: 16 });
    generousExtraction = await ContentParsingPool.start({ threads: 1, deadlineMs: GENEROUS_DEADLINE_MS, maxHeapMb: 256, maxQueue: 16 });
  });

  afterAll(async () => {
    await Promise.allSettled([extraction?.close(), generousExtraction?.close(), site?.close()]);
  });

  const crawlOf = (path: string, overrides: Partial<CrawlRequest> = {}): CrawlRequest => ({
    url: `${site.url}${path}`,
    chunksPerSource: 3,
    maxDepth: 1,
    maxBreadth: 20,
    limit: 20,
    allowExternal: false,
    includeImages: false,
    extractDepth: 'basic',
    format: 'markdown',
    includeFavicon: false,
    timeoutMs: 30_000,
    mode: 'crawl',
    ...overrides,
  });

  /**
   * Parsing a page on the event loop holds the loop for the parse's whole length, most of the crawl's time; parsed
   * in the pool, the loop's longest hold is the engine's own work on the result (URL normalisation, the frontier:
   * about 0.3 s for 100k links on a quiet machine, a tenth of the map). A share of the crawl's own time, not a fixed
   * figure: on a busy machine (CI runs two suites at once on two cores) every hold and the crawl stretch alike.
   */
  function expectLoopFree({ elapsedMs, longestStallMs }: { elapsedMs: number; longestStallMs: number }): void {
    expect(longestStallMs).toBeLessThan(elapsedMs / 2);
  }

  async function timedCrawl(path: string, pool: ContentParsingPool = extraction, overrides: Partial<CrawlRequest> = {}) {
    // Parsing on the loop shows as a stall of the parse's length; a busy machine only delays each turn a little.
    const { value: outcome, elapsedMs, longestStallMs } = await loopHoldDuring(
      () => runCrawl(crawlOf(path, overrides), createDefaultCrawlDependencies({ policy, extraction: pool })),
      10,
    );
    return { outcome, elapsedMs, longestStallMs };
  }

  it('fails a page of markup that outlasts the extraction deadline alone, its event loop free meanwhile', async () => {
    const crawl = await timedCrawl('/index.html');
    expect(crawl.outcome.pages.map(({ page }) => page.title).sort()).toEqual(['Harbour index', 'Tides']);
    expect(crawl.outcome.failedPages).toBe(1);
    expect(crawl.elapsedMs).toBeGreaterThanOrEqual(EXTRACTION_DEADLINE_MS);
    expect(crawl.elapsedMs).toBeLessThan(EXTRACTION_DEADLINE_MS + 5_000);
    expectLoopFree(crawl);
  });

  it('refuses binary data served as HTML before extracting it', async () => {
    const { outcome, elapsedMs } = await timedCrawl('/noisy-index.html', generousExtraction);
    expect(outcome.pages.map(({ page }) => page.title).sort()).toEqual(['Noisy index', 'Tides']);
    expect(outcome.failedPages).toBe(1);
    // Well inside the extraction deadline: the noise never reached a parser (which would spend it all).
    expect(elapsedMs).toBeLessThan(GENEROUS_DEADLINE_MS);
  });

  // Issue #16: markdown conversion and link contexts quadratic in the number of links left a map or crawl of a
  // 20k-link page with no result after its full timeout. Measured on 2 busy cores: a map of 20k links ~0.7 s, of 100k
  // ~4 s; a crawl of the 20k page ~2.6 s; the whole 100k page ~9 s of extraction. With the quadratic code back, the
  // map of 20k took 4.2 s and of 100k ran out its 20 s, and the crawl of 20k ran out its 20 s.
  describe('pages made of links', () => {
    // The 100k page tells linear from quadratic work (quadratic runs out its 20 s); the 20k bound only has to hold on
    // a machine loaded by the whole suite, where the linear map took 3.3 s.
    it.each([
      [20_000, 6_000],
      [100_000, 15_000],
    ])('maps a page of %i links whole, in under %i ms of a 20 s timeout', async (links, boundMs) => {
      const crawl = await timedCrawl(`/links-${links / 1000}k.html`, generousExtraction, {
        mode: 'map',
        maxDepth: 1,
        maxBreadth: 500,
        limit: 501,
        timeoutMs: 20_000,
      });
      expect(crawl.outcome.partial).toBe(false);
      expect(crawl.outcome.failedPages).toBe(0);
      expect(crawl.outcome.urls).toHaveLength(501);
      expect(crawl.outcome.urls).toEqual(expect.arrayContaining([`${site.url}/links-${links / 1000}k.html`, `${site.url}/page/0`, `${site.url}/page/498`]));
      expect(crawl.elapsedMs).toBeLessThan(boundMs);
      expectLoopFree(crawl);
    });

    it('crawls a page of 20k links whole, well inside its timeout', async () => {
      const crawl = await timedCrawl('/links-20k.html', generousExtraction, { maxDepth: 0, limit: 1, timeoutMs: 20_000 });
      expect(crawl.outcome.partial).toBe(false);
      expect(crawl.outcome.pages.map(({ page }) => page.title)).toEqual(['Links']);
      expect(crawl.outcome.pages[0].content).toContain(`[berth 19999](${site.url}/page/19999)`);
      expect(crawl.elapsedMs).toBeLessThan(8_000);
      expectLoopFree(crawl);
    });

    it('answers a crawl of a page of 100k links by its timeout and frees the thread for the next crawl at once', async () => {
      const CRAWL_TIMEOUT_MS = 3_000;
      const { outcome, elapsedMs } = await timedCrawl('/links-100k.html', generousExtraction, { maxDepth: 0, limit: 1, timeoutMs: CRAWL_TIMEOUT_MS });
      // Either the crawl's deadline ends the extraction (a partial answer) or the thread's heap cap refuses the page
      // first (a failed page): both answer in time with no page, and the thread is free again.
      expect(outcome.partial || outcome.failedPages === 1).toBe(true);
      expect(outcome.pages).toEqual([]);
      expect(elapsedMs).toBeLessThan(CRAWL_TIMEOUT_MS + 1_000);
      // The same single thread extracts the next page at once: the abandoned extraction ended with the crawl's
      // deadline, not at the pool's 10 s one.
      const next = await timedCrawl('/tides.html', generousExtraction, { maxDepth: 0, limit: 1, timeoutMs: 10_000 });
      expect(next.outcome.pages.map(({ page }) => page.title)).toEqual(['Tides']);
      // Far below the pool's 10 s deadline; a loaded machine took 3.8 s.
      expect(next.elapsedMs).toBeLessThan(6_000);
    });
  });
});
