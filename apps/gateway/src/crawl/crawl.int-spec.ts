import { FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { callGateway, createTestAccount, createTestKey, GitDocsSite, startGitDocsSite, type TestKey } from '@sift/testing';
import { countTokens } from '../http/token-budget';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';

interface CrawlBody {
  base_url: string;
  results: Array<{ url: string; raw_content: string; images?: string[]; favicon?: string }>;
  response_time: number;
  request_id: string;
  usage?: { credits: number };
}

interface MapBody {
  base_url: string;
  results: string[];
  request_id: string;
  usage?: { credits: number };
  warnings?: string[];
  token_budget?: { max_tokens: number; returned_tokens: number; cut: boolean };
}

interface ErrorBody {
  detail: { error: string };
}

// A full-size crawl of the Git documentation site extracts a few hundred kilobytes per page.
jest.setTimeout(120_000);

// POST /crawl and POST /map over HTTP: the gateway validates, meters and enqueues; a real crawler worker process
// crawls the Git documentation site served on loopback.
describe('POST /crawl and POST /map', () => {
  let gateway: TestGateway;
  let worker: WorkerProcess;
  let site: GitDocsSite;
  let internal: FixtureServer;

  beforeAll(async () => {
    site = await startGitDocsSite();
    // The "internal" service: a loopback address the egress policy does not allow.
    internal = await startFixtureServer({ '/': (_request, response) => response.end('<p>secret</p>') }, ['127.0.0.2']);
    worker = await startWorkerProcess('crawler-worker');
    gateway = await startTestGateway({ QUEUE_PREFIX: worker.queuePrefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32' });
  }, 120_000);

  afterAll(async () => {
    await Promise.all([gateway?.close(), worker?.stop(), site?.close(), internal?.close()]);
  });

  async function newKey(): Promise<string> {
    return (await newLimitedKey(null)).apiKey;
  }

  async function newLimitedKey(creditLimit: number | null): Promise<TestKey> {
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    return createTestKey(gateway.prisma, account.id, { creditLimit });
  }

  /** Pages of the site fetched so far (robots.txt and sitemap.xml are not pages). */
  function pagesFetched(): number {
    return [...site.hits].filter(([path]) => path.endsWith('.html') || path === '/').reduce((sum, [, hits]) => sum + hits, 0);
  }

  /** What the key was charged (credits, ledger rows) and the credits it still holds. */
  async function ledgerOf(key: TestKey) {
    const rows = await gateway.prisma.creditLedger.findMany({ where: { apiKeyId: key.id }, select: { planCredits: true, paygoCredits: true } });
    const reservations = await gateway.prisma.creditReservation.count({ where: { apiKeyId: key.id } });
    return { credits: rows.reduce((sum, row) => sum + row.planCredits + row.paygoCredits, 0), rows: rows.length, reservations };
  }

  it.each(['/crawl', '/map'])('%s answers 400 "no starting url provided" without a url', async (path) => {
    const apiKey = await newKey();
    for (const body of [{}, { url: '  ' }]) {
      const response = await callGateway<ErrorBody>(gateway.baseUrl, 'POST', path, { apiKey, body });
      expect(response.status).toBe(400);
      expect(response.body.detail.error).toBe('no starting url provided');
    }
  });

  it.each(['/crawl', '/map'])('%s answers 403 "URL is not supported" for a forbidden address, without a request to it', async (path) => {
    const response = await callGateway<ErrorBody>(gateway.baseUrl, 'POST', path, { apiKey: await newKey(), body: { url: internal.url } });
    expect(response.status).toBe(403);
    expect(response.body.detail.error).toBe('URL is not supported');
    expect(internal.requests).toEqual([]);
  });

  it('answers 400 for a pattern that is not a valid regular expression, before crawling', async () => {
    const hitsBefore = site.hits.size;
    const response = await callGateway<ErrorBody>(gateway.baseUrl, 'POST', '/crawl', {
      apiKey: await newKey(),
      body: { url: `${site.origin}/index.html`, select_paths: ['/git-(merge'] },
    });
    expect(response.status).toBe(400);
    expect(response.body.detail.error).toMatch(/select_paths/);
    expect(site.hits.size).toBe(hitsBefore);
  });

  it('crawls up to `limit` pages and charges mapping (1 per 10 pages) plus basic extraction (1 per 5 pages)', async () => {
    const apiKey = await newKey();
    const { status, body } = await callGateway<CrawlBody>(gateway.baseUrl, 'POST', '/crawl', {
      apiKey,
      body: { url: `${site.origin}/index.html`, max_depth: 1, limit: 10, include_usage: true, include_favicon: true },
    });
    expect(status).toBe(200);
    expect(body.base_url).toBe(`${site.origin}/index.html`);
    expect(body.results).toHaveLength(10);
    expect(body.results[0].url).toBe(`${site.origin}/index.html`);
    expect(body.results.every((page) => page.url.startsWith(`${site.origin}/`) && page.raw_content.length > 100)).toBe(true);
    expect(body.results.some((page) => page.raw_content.includes('#'))).toBe(true);
    // 10 pages: 1 credit of mapping and 2 credits of basic extraction.
    expect(body.usage).toEqual({ credits: 3 });
    const usage = await callGateway<{ key: { usage: number; crawl_usage: number } }>(gateway.baseUrl, 'GET', '/usage', { apiKey });
    expect(usage.body.key).toEqual(expect.objectContaining({ usage: 3, crawl_usage: 3 }));
  });

  it('stores no crawled page for a zero-data-retention account, and every crawled page for others', async () => {
    const account = await createTestAccount(gateway.prisma, { plan: 'growth', zeroDataRetention: true });
    const zdrKey = (await createTestKey(gateway.prisma, account.id)).apiKey;
    const body = { url: `${site.origin}/git-merge.html`, max_depth: 1, limit: 4 };
    const written = (since: Date) => gateway.prisma.document.count({ where: { url: { startsWith: site.origin }, fetchedAt: { gte: since } } });

    const zdrStartedAt = new Date();
    const zdr = await callGateway<CrawlBody>(gateway.baseUrl, 'POST', '/crawl', { apiKey: zdrKey, body });
    expect(zdr.status).toBe(200);
    expect(zdr.body.results).toHaveLength(4);
    // The worker answers after its stores have settled: nothing was inserted or refreshed for this crawl.
    expect(await written(zdrStartedAt)).toBe(0);

    const startedAt = new Date();
    const normal = await callGateway<CrawlBody>(gateway.baseUrl, 'POST', '/crawl', { apiKey: await newKey(), body });
    expect(normal.body.results).toHaveLength(4);
    expect(await written(startedAt)).toBe(4);
  });

  it('returns the chunks that match the instructions, most relevant pages first', async () => {
    const { status, body } = await callGateway<CrawlBody>(gateway.baseUrl, 'POST', '/crawl', {
      apiKey: await newKey(),
      body: {
        url: `${site.origin}/index.html`,
        max_depth: 1,
        limit: 40,
        instructions: 'How do I merge branches together?',
        chunks_per_source: 2,
        format: 'text',
      },
    });
    expect(status).toBe(200);
    expect(body.results.slice(0, 3).map((page) => page.url)).toContain(`${site.origin}/git-merge.html`);
    const merge = body.results.find((page) => page.url.endsWith('/git-merge.html'));
    expect(merge?.raw_content.split(' [...] ')).toHaveLength(2);
  });

  it('maps the site through its links and sitemap, charging 1 credit per 10 URLs', async () => {
    const { status, body } = await callGateway<MapBody>(gateway.baseUrl, 'POST', '/map', {
      apiKey: await newKey(),
      body: { url: `${site.origin}/index.html`, max_depth: 1, limit: 500, include_usage: true },
    });
    expect(status).toBe(200);
    // Listed in sitemap.xml but linked from no page of the site.
    expect(body.results).toContain(`${site.origin}/BreakingChanges.html`);
    expect(body.results.some((url) => url.includes('/technical/'))).toBe(false);
    expect(body.results.length).toBeGreaterThan(200);
    expect(body.usage).toEqual({ credits: Math.floor(body.results.length / 10) });
  });

  it('max_tokens: a map returns the URLs that fit, in the order found, says how many it left out, and charges the pages mapped', async () => {
    const apiKey = await newKey();
    const request = { url: `${site.origin}/index.html`, max_depth: 1, limit: 500, include_usage: true };
    const whole = await callGateway<MapBody>(gateway.baseUrl, 'POST', '/map', { apiKey, body: request });
    const { status, body } = await callGateway<MapBody>(gateway.baseUrl, 'POST', '/map', { apiKey, body: { ...request, max_tokens: 200 } });
    expect(status).toBe(200);
    const tokens = body.results.reduce((sum, url) => sum + countTokens(url), 0);
    expect(body.token_budget).toEqual({ max_tokens: 200, returned_tokens: tokens, cut: true });
    expect(tokens).toBeLessThanOrEqual(200);
    // Whole URLs of the site only (the order found moves between two maps: pages answer in their own time), and no room
    // left for another.
    expect(body.results.length).toBeGreaterThan(0);
    for (const url of body.results) expect(whole.body.results).toContain(url);
    expect(tokens + Math.max(...whole.body.results.map((url) => countTokens(url)))).toBeGreaterThan(200);
    expect(body.warnings).toContain(`${whole.body.results.length - body.results.length} of the ${whole.body.results.length} URLs found were left out to fit max_tokens 200.`);
    // Charged for the pages it mapped (a page more or less than the other map, as pages answer), not the URLs shown.
    expect(body.usage!.credits).toBeGreaterThan(Math.floor(body.results.length / 10));
    expect(Math.abs(body.usage!.credits - whole.body.usage!.credits)).toBeLessThanOrEqual(1);
    expect(whole.body).not.toHaveProperty('token_budget');
  });

  it('lists no internal address a page links to or a sitemap names, though it fetches neither (the policy rules what it returns too)', async () => {
    const internalLinks = [
      internal.url,
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/admin',
      'http://167772161/',
      'http://user:secret@127.0.0.1/private',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://router.local/',
    ];
    const links = (urls: string[]) => urls.map((url) => `<a href="${url}">${url}</a>`).join(' ');
    const linking: FixtureServer = await startFixtureServer({
      '/': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(`<!doctype html><title>Links</title><p>A page of links. ${links([...internalLinks, '/public'])}</p>`);
      },
      '/sitemap.xml': (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/xml' });
        response.end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[...internalLinks, `${linking.url}/listed`].map((url) => `<url><loc>${url}</loc></url>`).join('')}</urlset>`);
      },
    });
    try {
      const { status, body } = await callGateway<MapBody>(gateway.baseUrl, 'POST', '/map', {
        apiKey: await newKey(),
        body: { url: linking.url, max_depth: 1, allow_external: true, limit: 50 },
      });
      expect(status).toBe(200);
      expect(body.results.sort()).toEqual([`${linking.url}/`, `${linking.url}/listed`, `${linking.url}/public`].sort());
      expect(internal.requests).toEqual([]);
    } finally {
      await linking.close();
    }
  });

  it('ten parallel maps on a 3-credit key fetch at most what 3 credits pay; the rest are refused 432 before fetching', async () => {
    const key = await newLimitedKey(3);
    const fetchedBefore = pagesFetched();
    // limit 50 costs up to 5 credits: the first map is granted 3 (30 pages), the others find nothing left.
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        callGateway<MapBody | ErrorBody>(gateway.baseUrl, 'POST', '/map', {
          apiKey: key.apiKey,
          body: { url: `${site.origin}/index.html`, max_depth: 2, limit: 50, include_usage: true },
        }),
      ),
    );
    const granted = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(granted.length).toBeGreaterThanOrEqual(1);
    for (const answer of refused) {
      expect(answer.status).toBe(432);
      expect((answer.body as ErrorBody).detail.error).toMatch(/API key usage limit/);
    }
    expect(pagesFetched() - fetchedBefore).toBeLessThanOrEqual(30);
    const charged = granted.reduce((sum, answer) => sum + ((answer.body as MapBody).usage?.credits ?? 0), 0);
    expect(charged).toBeLessThanOrEqual(3);
    expect(await ledgerOf(key)).toEqual({ credits: charged, rows: granted.length, reservations: 0 });
  });

  it('refuses a crawl that cannot pay for one page with 432 before fetching anything, and stores nothing', async () => {
    // One page costs up to 2 credits (a block of mapping and one of extraction).
    const { apiKey } = await newLimitedKey(1);
    const fetchedBefore = pagesFetched();
    const documentsBefore = await gateway.prisma.document.count();
    const response = await callGateway<ErrorBody>(gateway.baseUrl, 'POST', '/crawl', { apiKey, body: { url: `${site.origin}/index.html`, limit: 10 } });
    expect(response.status).toBe(432);
    expect(pagesFetched()).toBe(fetchedBefore);
    expect(await gateway.prisma.document.count()).toBe(documentsBefore);
  });

  it('caps a crawl at the pages the key can pay for and charges both meters in one settlement', async () => {
    const key = await newLimitedKey(3);
    const { status, body } = await callGateway<CrawlBody>(gateway.baseUrl, 'POST', '/crawl', {
      apiKey: key.apiKey,
      body: { url: `${site.origin}/index.html`, max_depth: 1, limit: 40, include_usage: true },
    });
    expect(status).toBe(200);
    // 3 credits pay 10 pages in the worst case (1 of mapping, 2 of extraction).
    expect(body.results).toHaveLength(10);
    expect(body.usage).toEqual({ credits: 3 });
    expect(await ledgerOf(key)).toEqual({ credits: 3, rows: 2, reservations: 0 });
  });

  it('a crawl that gets no answer after reserving returns an empty partial result, keeps no charge and holds no credits', async () => {
    // A gateway whose queue no worker consumes: the crawl job never answers; the caller gets what was crawled
    // (nothing), never a 500 (issue 16 item 8).
    const stranded = await startTestGateway({ QUEUE_PREFIX: `${worker.queuePrefix}-nobody`, FETCH_ALLOW_CIDRS: '127.0.0.1/32' });
    try {
      const key = await newLimitedKey(4);
      const response = await callGateway<CrawlBody>(stranded.baseUrl, 'POST', '/crawl', {
        apiKey: key.apiKey,
        body: { url: `${site.origin}/index.html`, limit: 10, timeout: 10, include_usage: true },
      });
      expect(response.status).toBe(200);
      expect(response.body.results).toEqual([]);
      expect(response.body.usage).toEqual({ credits: 0 });
      // Settled like a crawl whose pages all failed: zero-credit rows, nothing charged, nothing held.
      expect(await ledgerOf(key)).toMatchObject({ credits: 0, reservations: 0 });
    } finally {
      await stranded.close();
    }
  });
});
