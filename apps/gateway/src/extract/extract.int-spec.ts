import { randomUUID } from 'node:crypto';
import { callGateway, createTestAccount, createTestKey, eventually } from '@sift/testing';
import { FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { startTestGateway, TestGateway, uniqueClientIp } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';

interface ExtractBody {
  results: Array<{ url: string; title: string | null; raw_content: string; images?: string[]; favicon?: string }>;
  failed_results: Array<{ url: string; error: string; error_code: string; retryable: boolean }>;
  request_id: string;
  response_time: number;
  usage?: { credits: number };
}

const article = (title: string) => `<!doctype html><html lang="en"><head><title>${title}</title>
<link rel="icon" href="/icon.png"></head><body><nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<article><h1>${title}</h1><p>${'Sift extracts the main content of pages for agents. '.repeat(12)}</p>
<p><img src="/photo.jpg" alt="A photo"> Tables, lists and code survive the trip to markdown.</p>
<table><tr><th>Plan</th><th>Credits</th></tr><tr><td>Researcher</td><td>1000</td></tr></table></article>
<footer>Copyright footer text</footer></body></html>`;

// POST /extract over HTTP: the gateway validates, meters and enqueues; a real extractor worker process fetches
// through the safe egress path from loopback fixture servers.
describe('POST /extract', () => {
  let gateway: TestGateway;
  let worker: WorkerProcess;
  let site: FixtureServer;
  let internal: FixtureServer;

  beforeAll(async () => {
    site = await startFixtureServer({
      '/a': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(article('Alpha page')),
      '/b': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(article('Beta page')),
      '/c': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(article('Gamma page')),
      '/d': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(article('Delta page')),
      '/e': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(article('Epsilon page')),
      '/to-internal': (_request, response) => response.writeHead(302, { location: `http://127.0.0.2:${internal.port}/secret` }).end(),
      '/slow': () => undefined,
      '/adult': (_request, response) =>
        response
          .writeHead(200, { 'content-type': 'text/html' })
          .end(article('Labelled page').replace('<head>', '<head><meta name="rating" content="adult"><meta property="og:locale" content="en_GB">')),
      '/binary': (_request, response) => response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(2048, 1)),
    });
    // The "internal" service: reachable on loopback addresses that the egress policy does not allow.
    internal = await startFixtureServer({ '/secret': (_request, response) => response.end('<p>secret</p>') }, ['127.0.0.2', '::1']);
    worker = await startWorkerProcess('extractor-worker');
    gateway = await startTestGateway({ QUEUE_PREFIX: worker.queuePrefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32' });
  }, 120_000);

  afterAll(async () => {
    await Promise.all([gateway?.close(), worker?.stop(), site?.close(), internal?.close()]);
  });

  async function keyFor(plan = 'growth', options: { zeroDataRetention?: boolean } = {}): Promise<string> {
    const account = await createTestAccount(gateway.prisma, { plan, ...options });
    return (await createTestKey(gateway.prisma, account.id)).apiKey;
  }

  it('returns content, images and favicon, and reports every per-URL problem in failed_results', async () => {
    const apiKey = await keyFor();
    const { status, body } = await callGateway<ExtractBody>(gateway.baseUrl, 'POST', '/extract', {
      apiKey,
      body: {
        urls: [`${site.url}/a`, `${site.url}/missing`, 'not a url', `${site.url}/binary`, `http://127.0.0.2:${internal.port}/secret`],
        include_images: true,
        include_favicon: true,
      },
    });
    expect(status).toBe(200);
    expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.response_time).toBeGreaterThan(0);
    expect(body.results).toHaveLength(1);
    const [page] = body.results;
    // The page's title comes as `title`; the content is the article without navigation and footer.
    expect(page.title).toBe('Alpha page');
    expect(page.raw_content).toContain('Sift extracts the main content of pages for agents.');
    expect(page.raw_content).toMatch(/\|\s*Plan\s*\|\s*Credits\s*\|/);
    expect(page.raw_content).not.toContain('Copyright footer');
    expect(page.images).toEqual([`${site.url}/photo.jpg`]);
    expect(page.favicon).toBe(`${site.url}/icon.png`);
    const reasons = Object.fromEntries(body.failed_results.map((failure) => [failure.url, failure.error]));
    expect(reasons[`${site.url}/missing`]).toMatch(/404/);
    expect(reasons['not a url']).toMatch(/invalid url/i);
    expect(reasons[`${site.url}/binary`]).toMatch(/unsupported content/i);
    expect(reasons[`http://127.0.0.2:${internal.port}/secret`]).toBe('URL is not supported');
    expect(internal.requests).toEqual([]);
  });

  it('refuses a redirect from an allowed host to a forbidden one, with zero hits on the forbidden one', async () => {
    const { body } = await callGateway<ExtractBody>(gateway.baseUrl, 'POST', '/extract', { apiKey: await keyFor(), body: { urls: `${site.url}/to-internal` } });
    expect(body.results).toEqual([]);
    expect(body.failed_results).toEqual([{ url: `${site.url}/to-internal`, error: 'URL is not supported', error_code: 'not_allowed', retryable: false }]);
    expect(internal.requests).toEqual([]);
  });

  it('answers within the request timeout, reporting the slow URL as timed out', async () => {
    const started = Date.now();
    const { status, body } = await callGateway<ExtractBody>(gateway.baseUrl, 'POST', '/extract', {
      apiKey: await keyFor(),
      body: { urls: [`${site.url}/slow`, `${site.url}/b`], timeout: 2 },
    });
    expect(status).toBe(200);
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(body.results.map((result) => result.url)).toEqual([`${site.url}/b`]);
    expect(body.failed_results[0]).toEqual({ url: `${site.url}/slow`, error: expect.stringMatching(/timed out/i), error_code: 'timeout', retryable: true });
  });

  it('charges 1 credit per 5 successful basic extractions, carried over, and never charges failures', async () => {
    const apiKey = await keyFor();
    const first = await callGateway<ExtractBody>(gateway.baseUrl, 'POST', '/extract', {
      apiKey,
      body: { urls: [`${site.url}/a`, `${site.url}/b`, `${site.url}/c`, `${site.url}/missing`], include_usage: true },
    });
    expect(first.body.results).toHaveLength(3);
    expect(first.body.usage).toEqual({ credits: 0 });
    const second = await callGateway<ExtractBody>(gateway.baseUrl, 'POST', '/extract', {
      apiKey,
      body: { urls: [`${site.url}/d`, `${site.url}/e`], include_usage: true },
    });
    expect(second.body.usage).toEqual({ credits: 1 });
    const usage = await callGateway<{ key: { usage: number; extract_usage: number } }>(gateway.baseUrl, 'GET', '/usage', { apiKey });
    expect(usage.body.key).toEqual(expect.objectContaining({ usage: 1, extract_usage: 1 }));
  });

  it('refuses up front with 432 over the key or plan limit and 433 over the pay-as-you-go limit, fetching nothing', async () => {
    const before = site.requests.length;
    const limited = await createTestAccount(gateway.prisma, { plan: 'growth' });
    const limitedKey = (await createTestKey(gateway.prisma, limited.id, { creditLimit: 0 })).apiKey;
    const overKey = await callGateway(gateway.baseUrl, 'POST', '/extract', { apiKey: limitedKey, body: { urls: [`${site.url}/a`] } });
    expect(overKey.status).toBe(432);
    expect(overKey.body).toEqual({ detail: { error: expect.stringMatching(/limit/i) } });

    const paygo = await createTestAccount(gateway.prisma, { plan: 'paygo', paygoLimit: 0 });
    const paygoKey = (await createTestKey(gateway.prisma, paygo.id)).apiKey;
    const overPaygo = await callGateway(gateway.baseUrl, 'POST', '/extract', { apiKey: paygoKey, body: { urls: [`${site.url}/a`] } });
    expect(overPaygo.status).toBe(433);
    expect(overPaygo.body).toEqual({ detail: { error: expect.stringMatching(/pay-as-you-go/i) } });
    expect(site.requests.length).toBe(before);
  });

  it('validates the request: more than 20 URLs, a bad depth or timeout is a 400 in the spec shape', async () => {
    const apiKey = await keyFor();
    const tooMany = await callGateway(gateway.baseUrl, 'POST', '/extract', { apiKey, body: { urls: Array.from({ length: 21 }, (_, i) => `${site.url}/${i}`) } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ detail: { error: expect.stringMatching(/urls/) } });
    for (const body of [{ urls: [`${site.url}/a`], extract_depth: 'deep' }, { urls: [`${site.url}/a`], timeout: 61 }, {}]) {
      const answer = await callGateway(gateway.baseUrl, 'POST', '/extract', { apiKey, body });
      expect(answer.status).toBe(400);
    }
  });

  it('works keyless without charging anyone, and stores nothing for a zero-data-retention account', async () => {
    const keyless = await callGateway<ExtractBody>(gateway.baseUrl, 'POST', '/extract', {
      headers: { 'X-Tavily-Access-Mode': 'keyless', 'X-Forwarded-For': uniqueClientIp() },
      body: { urls: [`${site.url}/c`] },
    });
    expect(keyless.status).toBe(200);
    expect(keyless.body.results[0].title).toBe('Gamma page');

    const zdrKey = await keyFor('growth', { zeroDataRetention: true });
    const zdrUrl = `${site.url}/e?zdr=${randomUUID()}`;
    const storedCopies = () => gateway.prisma.document.findMany({ where: { url: zdrUrl } });
    const zdr = await callGateway<ExtractBody>(gateway.baseUrl, 'POST', '/extract', { apiKey: zdrKey, body: { urls: [zdrUrl] } });
    expect(zdr.body.results).toEqual([expect.objectContaining({ url: zdrUrl, title: 'Epsilon page' })]);
    // The same URL for an account that keeps data is stored (after the answer, so the test waits for it), and is then
    // the only copy: the zero-data-retention account's page, stored first had it been, is not. The account's copy shows
    // that the check is not vacuous.
    await callGateway<ExtractBody>(gateway.baseUrl, 'POST', '/extract', { apiKey: await keyFor(), body: { urls: [zdrUrl] } });
    const stored = await eventually('the page stored for the account that keeps data', async () => {
      const copies = await storedCopies();
      return copies.length > 0 ? copies : undefined;
    }, 15_000, 25);
    expect(stored).toEqual([expect.objectContaining({ title: 'Epsilon page' })]);
    await gateway.prisma.document.deleteMany({ where: { url: zdrUrl } });
  });

  it('stores what it extracted with the metadata search filters on (self-labelled adult content, country hints)', async () => {
    const url = `${site.url}/adult?run=${Date.now()}`;
    const { body } = await callGateway<ExtractBody>(gateway.baseUrl, 'POST', '/extract', { apiKey: await keyFor(), body: { urls: [url] } });
    expect(body.results).toHaveLength(1);
    // The page is stored just after the answer.
    const stored = await eventually('the page stored', async () => (await gateway.prisma.document.findFirst({ where: { url: { contains: url.split('?')[1] } } })) ?? undefined, 15_000, 25);
    expect(stored).toEqual(expect.objectContaining({ title: 'Labelled page', isUnsafe: true, countryHints: ['gb'] }));
  });
});
