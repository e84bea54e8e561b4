import { callGateway, createTestAccount, createTestKey, eventually, freePortBelowEphemeralRange } from '@sift/testing';
import { FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';

interface FailedResult {
  url: string;
  error: string;
  error_code: string;
  retryable: boolean;
}

interface ExtractBody {
  results: Array<{ url: string }>;
  failed_results: FailedResult[];
  warnings?: string[];
}

const html = (title: string, body: string) => `<!doctype html><html lang="en"><head><title>${title}</title></head><body>${body}</body></html>`;

// Each failure code of POST /extract made by its real cause: a real extractor worker fetches loopback fixtures through
// safe-fetch, and the code travels in the job's result to failed_results (docs/errors.md).
describe('POST /extract failure codes', () => {
  let gateway: TestGateway;
  let worker: WorkerProcess;
  let site: FixtureServer;
  let internal: FixtureServer;
  let refusedPort: number;
  let apiKey: string;

  beforeAll(async () => {
    site = await startFixtureServer({
      '/gone': (_request, response) => response.writeHead(404, { 'content-type': 'text/html' }).end(html('Not found', '<p>No such page.</p>')),
      '/removed': (_request, response) => response.writeHead(410, { 'content-type': 'text/plain' }).end('gone'),
      '/private': (_request, response) => response.writeHead(403, { 'content-type': 'text/html' }).end(html('Forbidden', '<p>You may not read this.</p>')),
      '/login': (_request, response) => response.writeHead(401, { 'content-type': 'text/plain' }).end('log in first'),
      '/busy': (_request, response) => response.writeHead(429, { 'content-type': 'text/html', 'retry-after': '0' }).end(html('Slow down', '<p>Too many.</p>')),
      '/broken': (_request, response) => response.writeHead(500, { 'content-type': 'text/html' }).end(html('Error', '<p>Something broke.</p>')),
      '/teapot': (_request, response) => response.writeHead(418, { 'content-type': 'text/html' }).end(html('Teapot', '<p>I am a teapot.</p>')),
      '/slow': () => undefined,
      '/huge': (_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end(Buffer.alloc(16 * 1024 * 1024, 'a')),
      '/image': (_request, response) => response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(2048, 1)),
      '/challenge': (_request, response) =>
        response.writeHead(200, { 'content-type': 'text/html' }).end(html('Just a moment...', '<div id="cf-challenge">Checking your browser</div>')),
      '/blank': (_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('\n\n'),
      '/loop': (_request, response) => response.writeHead(302, { location: '/loop' }).end(),
    });
    internal = await startFixtureServer({ '/secret': (_request, response) => response.end('<p>secret</p>') }, ['127.0.0.2']);
    // Nothing listens there, and no other test's server is given it: a connection to it is refused.
    refusedPort = await freePortBelowEphemeralRange();
    worker = await startWorkerProcess('extractor-worker');
    gateway = await startTestGateway({ QUEUE_PREFIX: worker.queuePrefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32' });
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    apiKey = (await createTestKey(gateway.prisma, account.id)).apiKey;
  }, 120_000);

  afterAll(async () => {
    await Promise.all([gateway?.close(), worker?.stop(), site?.close(), internal?.close()]);
  });

  async function failures(urls: string[], extra: Record<string, unknown> = {}): Promise<{ body: ExtractBody; byUrl: Record<string, FailedResult> }> {
    const { status, body } = await callGateway<ExtractBody>(gateway.baseUrl, 'POST', '/extract', { apiKey, body: { urls, ...extra } });
    expect(status).toBe(200);
    return { body, byUrl: Object.fromEntries(body.failed_results.map((failure) => [failure.url, failure])) };
  }

  it('codes HTTP statuses, block pages, content and egress refusals where they happen', async () => {
    const cases: Record<string, [code: string, retryable: boolean]> = {
      [`${site.url}/gone`]: ['not_found', false],
      [`${site.url}/removed`]: ['not_found', false],
      [`${site.url}/private`]: ['forbidden', false],
      [`${site.url}/login`]: ['forbidden', false],
      [`${site.url}/busy`]: ['rate_limited', true],
      [`${site.url}/broken`]: ['server_error', true],
      [`${site.url}/teapot`]: ['http_error', false],
      [`${site.url}/huge`]: ['too_large', false],
      [`${site.url}/image`]: ['unsupported_type', false],
      [`${site.url}/challenge`]: ['blocked', false],
      [`${site.url}/blank`]: ['empty', false],
      [`${site.url}/loop`]: ['bad_redirect', false],
      [`http://127.0.0.2:${internal.port}/secret`]: ['not_allowed', false],
      'ftp://example.com/file': ['invalid_url', false],
      'not a url': ['invalid_url', false],
    };
    const { body, byUrl } = await failures(Object.keys(cases));
    expect(body.results).toEqual([]);
    for (const [url, [code, retryable]] of Object.entries(cases)) {
      expect({ url, code: byUrl[url]?.error_code, retryable: byUrl[url]?.retryable }).toEqual({ url, code, retryable });
      // The message people read is still there beside the code.
      expect(byUrl[url].error).toEqual(expect.any(String));
    }
    expect(byUrl[`${site.url}/gone`].error).toBe('HTTP 404');
    expect(internal.requests).toEqual([]);
    // Every URL failed: the warning says so and what may be retried.
    expect(body.warnings).toEqual([expect.stringMatching(/^Every URL failed .*2 of 15 may succeed if retried/)]);
  });

  it('codes network failures: an unresolvable host, a refused connection, a timeout', async () => {
    const { byUrl } = await failures([`http://no-such-host.invalid/`, `http://127.0.0.1:${refusedPort}/`, `${site.url}/slow`], { timeout: 2 });
    expect(byUrl['http://no-such-host.invalid/']).toMatchObject({ error_code: 'dns', retryable: true });
    expect(byUrl[`http://127.0.0.1:${refusedPort}/`]).toMatchObject({ error_code: 'connection', retryable: true, error: expect.stringMatching(/refused/) });
    expect(byUrl[`${site.url}/slow`]).toMatchObject({ error_code: 'timeout', retryable: true });
  });

  it('keeps the failures in the request log with their codes', async () => {
    const { body } = await callGateway<ExtractBody & { request_id: string }>(gateway.baseUrl, 'POST', '/extract', { apiKey, body: { urls: [`${site.url}/gone`] } });
    const log = await eventually('the request log line', async () => (await gateway.prisma.requestLog.findUnique({ where: { requestId: body.request_id } })) ?? undefined);
    expect(log.detail).toMatchObject({ urls: [{ url: `${site.url}/gone`, outcome: 'failed', error: 'HTTP 404', error_code: 'not_found' }] });
  });
});
