import type { ServerResponse } from 'node:http';
import { type FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { binaryNoise } from '@sift/testing';
import { runCrawl } from './crawl-engine';
import type { CrawlRequest } from './crawl-request';
import { createDefaultCrawlDependencies } from './default-crawl-dependencies';
import { PageExtractionPool } from './page-extraction-pool';

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
  let extraction: PageExtractionPool;
  let generousExtraction: PageExtractionPool;

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
    });
    extraction = await PageExtractionPool.start({ threads: 1, deadlineMs: EXTRACTION_DEADLINE_MS, maxHeapMb: 256, maxQueue: 16 });
    generousExtraction = await PageExtractionPool.start({ threads: 1, deadlineMs: GENEROUS_DEADLINE_MS, maxHeapMb: 256, maxQueue: 16 });
  });

  afterAll(async () => {
    await Promise.allSettled([extraction?.close(), generousExtraction?.close(), site?.close()]);
  });

  const crawlOf = (path: string): CrawlRequest => ({
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
  });

  /** Runs a crawl while a 10 ms timer ticks; resolves how long it took and how often the timer fired. */
  async function timedCrawl(path: string, pool: PageExtractionPool = extraction) {
    let timerTurns = 0;
    const ticker = setInterval(() => (timerTurns += 1), 10);
    const startedAt = performance.now();
    try {
      const outcome = await runCrawl(crawlOf(path), createDefaultCrawlDependencies({ policy, extraction: pool }));
      return { outcome, elapsedMs: performance.now() - startedAt, timerTurns };
    } finally {
      clearInterval(ticker);
    }
  }

  it('fails a page of markup that outlasts the extraction deadline alone, its event loop free meanwhile', async () => {
    const { outcome, elapsedMs, timerTurns } = await timedCrawl('/index.html');
    expect(outcome.pages.map(({ page }) => page.title).sort()).toEqual(['Harbour index', 'Tides']);
    expect(outcome.failedPages).toBe(1);
    expect(elapsedMs).toBeGreaterThanOrEqual(EXTRACTION_DEADLINE_MS);
    expect(elapsedMs).toBeLessThan(EXTRACTION_DEADLINE_MS + 5_000);
    // A 10 ms timer that fired at least a third of the times it should have: the loop was never held for long.
    expect(timerTurns).toBeGreaterThan(elapsedMs / 10 / 3);
  });

  it('refuses binary data served as HTML before extracting it', async () => {
    const { outcome, elapsedMs } = await timedCrawl('/noisy-index.html', generousExtraction);
    expect(outcome.pages.map(({ page }) => page.title).sort()).toEqual(['Noisy index', 'Tides']);
    expect(outcome.failedPages).toBe(1);
    // Well inside the extraction deadline: the noise never reached a parser (which would spend it all).
    expect(elapsedMs).toBeLessThan(GENEROUS_DEADLINE_MS);
  });
});
