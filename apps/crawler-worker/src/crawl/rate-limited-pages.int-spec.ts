import type { IncomingMessage, ServerResponse } from 'node:http';
import { type FixtureRoutes, type FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { runCrawl } from './crawl-engine';
import { DEFAULT_CRAWL_ENGINE_SETTINGS } from './crawl-dependencies';
import type { CrawlRequest } from './crawl-request';
import { createDefaultCrawlDependencies } from './default-crawl-dependencies';
import { HostScheduler } from './host-scheduler';

// A page its host rate-limits is asked again as the host says (Retry-After), more times than a page whose fetch failed:
// a 429 tells when to come back, not that the page is gone.
jest.setTimeout(30_000);

const { maxRetries, maxThrottledRetries } = DEFAULT_CRAWL_ENGINE_SETTINGS;
const policy = { allowCidrs: ['127.0.0.1/32'] };
const page = (title: string, links = '') =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${`${title} is a page of the harbour's tide tables. `.repeat(8)}</p>${links}</article></body></html>`;

describe('a crawl of pages its host rate-limits', () => {
  let site: FixtureServer;
  const requests = new Map<string, number>();

  /** Counts the request of its path; returns how many that path has had, this one included. */
  const counted = (request: IncomingMessage): number => {
    const count = (requests.get(request.url ?? '') ?? 0) + 1;
    requests.set(request.url ?? '', count);
    return count;
  };

  /** Answers 429 (Retry-After 0) to the first `throttled` requests of the path, then the page. */
  const throttledFor = (throttled: number, title: string) => (request: IncomingMessage, response: ServerResponse) => {
    if (counted(request) <= throttled) response.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '0' }).end('Too many requests');
    else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(title));
  };

  beforeAll(async () => {
    const routes: FixtureRoutes = {
      '/robots.txt': (_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n'),
      '/index.html': (_request, response) =>
        response
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(page('Harbour index', '<a href="/patient.html">Patient</a> <a href="/refusing.html">Refusing</a> <a href="/dropping.html">Dropping</a>')),
      // Rate-limited past the attempts a failed fetch gets, within the ones a rate-limited page gets.
      '/patient.html': throttledFor(maxRetries + 1, 'Patient page'),
      '/refusing.html': throttledFor(Number.POSITIVE_INFINITY, 'Refusing page'),
      // No response at all: the connection is dropped.
      '/dropping.html': (request, response) => {
        counted(request);
        response.socket?.destroy();
      },
    };
    site = await startFixtureServer(routes);
  });

  afterAll(async () => {
    await site?.close();
  });

  it('gets a page the host answered 429 more times than a failed fetch is retried, and gives up on one it always refuses', async () => {
    const request: CrawlRequest = {
      url: `${site.url}/index.html`,
      chunksPerSource: 3,
      maxDepth: 1,
      maxBreadth: 10,
      limit: 10,
      allowExternal: false,
      includeImages: false,
      extractDepth: 'basic',
      format: 'markdown',
      includeFavicon: false,
      timeoutMs: 20_000,
      mode: 'crawl',
    };
    const scheduler = new HostScheduler({ initialConcurrentPerHost: 8, maxConcurrentPerHost: 16, maxCrawlDelayMs: 5000 });
    const outcome = await runCrawl(request, createDefaultCrawlDependencies({ policy, hostScheduler: scheduler }));

    expect(outcome.pages.map((crawled) => new URL(crawled.page.url).pathname).sort()).toEqual(['/index.html', '/patient.html']);
    expect(requests.get('/patient.html')).toBe(maxRetries + 2);
    expect(outcome.failures?.map((failure) => [new URL(failure.url).pathname, failure.errorCode]).sort()).toEqual([
      ['/dropping.html', expect.any(String)],
      ['/refusing.html', 'rate_limited'],
    ]);
    expect(requests.get('/refusing.html')).toBe(maxThrottledRetries + 1);
    expect(requests.get('/dropping.html')).toBe(maxRetries + 1);
  });
});
