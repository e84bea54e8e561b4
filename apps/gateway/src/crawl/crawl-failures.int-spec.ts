import { FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { callGateway, createTestAccount, createTestKey } from '@sift/testing';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';

interface TraversalBody {
  results: Array<string | { url: string }>;
  failed_results?: Array<{ url: string; error: string; error_code: string; retryable: boolean }>;
  warnings?: string[];
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
  `<p>${'This page is about crawling small sites with care. '.repeat(10)}</p>${body}</main></body></html>`;

// POST /crawl and POST /map report the pages they reached but could not read, with the same codes as extract, and say
// which links robots.txt kept them from following: a real crawler worker on a loopback site.
describe('POST /crawl and POST /map failures', () => {
  let gateway: TestGateway;
  let worker: WorkerProcess;
  let site: FixtureServer;
  let apiKey: string;

  beforeAll(async () => {
    site = await startFixtureServer({
      '/robots.txt': (_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\nDisallow: /closed/\n'),
      '/': (_request, response) =>
        response
          .writeHead(200, { 'content-type': 'text/html' })
          .end(page('Home', '<a href="/a">A</a> <a href="/missing">Missing</a> <a href="/private/one">Private</a> <a href="/private/two">Private two</a>')),
      '/a': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(page('Page A', '')),
      '/missing': (_request, response) => response.writeHead(404, { 'content-type': 'text/html' }).end('<p>not here</p>'),
      '/private/one': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(page('Private', '')),
      '/private/two': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(page('Private two', '')),
      '/closed/': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(page('Closed', '<a href="/a">A</a>')),
    });
    worker = await startWorkerProcess('crawler-worker');
    gateway = await startTestGateway({ QUEUE_PREFIX: worker.queuePrefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32' });
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    apiKey = (await createTestKey(gateway.prisma, account.id)).apiKey;
  }, 120_000);

  afterAll(async () => {
    await Promise.all([gateway?.close(), worker?.stop(), site?.close()]);
  });

  it('a crawl lists its failed page with its code and warns of the links robots.txt disallows', async () => {
    const { status, body } = await callGateway<TraversalBody>(gateway.baseUrl, 'POST', '/crawl', { apiKey, body: { url: `${site.url}/`, max_depth: 1, limit: 10 } });
    expect(status).toBe(200);
    expect(body.results.map((result) => (typeof result === 'string' ? result : result.url)).sort()).toEqual([`${site.url}/`, `${site.url}/a`]);
    expect(body.failed_results).toEqual([{ url: `${site.url}/missing`, error: 'HTTP 404', error_code: 'not_found', retryable: false }]);
    expect(body.warnings).toEqual(["2 links were not followed: the site's robots.txt disallows them."]);
    expect(site.requests.filter((request) => request.includes('/private'))).toEqual([]);
  });

  it.each(['/crawl', '/map'])('%s from a root robots.txt disallows fails it as robots, not as an empty answer', async (path) => {
    const { status, body } = await callGateway<TraversalBody>(gateway.baseUrl, 'POST', path, { apiKey, body: { url: `${site.url}/closed/`, max_depth: 1 } });
    expect(status).toBe(200);
    expect(body.results).toEqual([]);
    expect(body.failed_results).toEqual([{ url: `${site.url}/closed/`, error: 'Disallowed by robots.txt', error_code: 'robots', retryable: false }]);
  });

  it('a crawl that fails nothing answers without the extra fields', async () => {
    const { body } = await callGateway<TraversalBody>(gateway.baseUrl, 'POST', '/crawl', { apiKey, body: { url: `${site.url}/a`, max_depth: 1 } });
    expect(body.results).toHaveLength(1);
    expect(body).not.toHaveProperty('failed_results');
    expect(body).not.toHaveProperty('warnings');
  });
});
