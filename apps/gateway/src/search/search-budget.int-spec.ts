import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { callGateway, createTestAccount, createTestKey } from '@sift/testing';
import { FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';
import { RequestLogWriter } from '../request-log/request-log-writer.service';

interface SearchBody {
  results: Array<{ url: string; title: string; content: string; raw_content?: string | null }>;
  warnings?: string[];
  request_id: string;
  response_time: number;
}

const BASIC_BUDGET_MS = 3_300;
/** How long the slow pages take: far past the budget, within basic depth's background deadline (10 s). */
const SLOW_PAGE_MS = 7_000;

// The latency budget on a web that is not instant: SearXNG (a loopback stand-in speaking its format=json) points at
// pages of which some answer at once and some take seconds; a real extractor worker fetches them.
describe('POST /search within the latency budget', () => {
  let gateway: TestGateway;
  let worker: WorkerProcess;
  let site: FixtureServer;
  let searxng: FixtureServer;
  let apiKey: string;
  const marker = `quorvel${randomUUID().replace(/-/g, '').slice(0, 8)}`;
  const upstream: Record<string, Array<Record<string, unknown>>> = {};
  const page = (title: string, body: string) =>
    `<!doctype html><html lang="en"><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${body}</p>` +
    `<p>${'A paragraph that pads the article to a realistic length for extraction. '.repeat(6)}</p></article></body></html>`;
  // A page's words name its test run, so pages stored by one test do not come back from the local index in another.
  const answer = (request: IncomingMessage, response: ServerResponse, delayMs: number) => {
    const url = new URL(request.url ?? '/', 'http://site');
    const word = `${url.searchParams.get('run')}${marker}`;
    const timer = setTimeout(() => {
      response.writeHead(200, { 'content-type': 'text/html' }).end(page(`${word} ${url.pathname}`, `The page at ${url.pathname} says ${word} ${url.pathname.slice(1)} in full.`));
    }, delayMs);
    response.on('close', () => clearTimeout(timer));
  };

  beforeAll(async () => {
    site = await startFixtureServer({
      '/quick-a': (request, response) => answer(request, response, 20),
      '/quick-b': (request, response) => answer(request, response, 20),
      '/quick-c': (request, response) => answer(request, response, 20),
      '/medium': (request, response) => answer(request, response, 4_000),
      '/slow-top': (request, response) => answer(request, response, SLOW_PAGE_MS),
      '/hanging': (request, response) => answer(request, response, SLOW_PAGE_MS),
    });
    searxng = await startFixtureServer({
      '/search': (request, response) => {
        const query = new URL(request.url ?? '/', 'http://searxng').searchParams.get('q') ?? '';
        const results = upstream[query] ?? [];
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ query, number_of_results: results.length, results }));
      },
    });
    worker = await startWorkerProcess('extractor-worker');
    // Budgets three times the defaults, so that a page answering at once arrives in time on a loaded machine too.
    gateway = await startTestGateway({
      QUEUE_PREFIX: worker.queuePrefix,
      FETCH_ALLOW_CIDRS: '127.0.0.1/32',
      SEARXNG_URL: searxng.url,
      SEARCH_BUDGET_BASIC_MS: String(BASIC_BUDGET_MS),
      SEARCH_HEDGE_BASIC_MS: '2100',
    });
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    apiKey = (await createTestKey(gateway.prisma, account.id)).apiKey;
    // A first search warms the worker (its parsing thread, the queue subscriptions): the budgets are about the web.
    upstream[`warm${marker}`] = [result('/quick-a', 'warm', 1)];
    await search(`warm${marker}`, { timeout: 20 });
  }, 120_000);

  afterAll(async () => {
    await gateway?.prisma.document.deleteMany({ where: { url: { startsWith: site.url } } });
    await Promise.all([gateway?.close(), worker?.stop(), site?.close(), searxng?.close()]);
  });

  // Each test searches its own copies of the pages (a query string), so one test's stored pages do not serve another.
  const result = (path: string, run: string, score: number) => ({
    url: `${site.url}${path}?run=${run}`,
    title: `${run}${marker} ${path}`,
    content: `Snippet of ${path}.`,
    engine: 'duckduckgo',
    score,
    category: 'general',
  });

  async function search(query: string, body: Record<string, unknown> = {}): Promise<{ status: number; body: SearchBody; tookMs: number }> {
    const startedAt = Date.now();
    const response = await callGateway<SearchBody>(gateway.baseUrl, 'POST', '/search', { apiKey, body: { query, ...body } });
    return { ...response, tookMs: Date.now() - startedAt };
  }

  async function detailOf(requestId: string): Promise<Record<string, unknown>> {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      await gateway.app.get(RequestLogWriter).flush();
      const logged = await gateway.prisma.requestLog.findUnique({ where: { requestId } });
      if (logged) return logged.detail as Record<string, unknown>;
      await new Promise((done) => setTimeout(done, 20));
    }
    throw new Error(`no request log for ${requestId}`);
  }

  it('answers within the budget while one page hangs, with its snippet and a warning; the page is in the store afterwards', async () => {
    const query = `hang${marker}`;
    upstream[query] = [result('/quick-a', 'hang', 3), result('/hanging', 'hang', 2), result('/quick-b', 'hang', 1)];
    const { status, body, tookMs } = await search(query, { max_results: 3, include_raw_content: 'markdown' });
    expect(status).toBe(200);
    // The budget, not the hanging page's time.
    expect(tookMs).toBeGreaterThanOrEqual(BASIC_BUDGET_MS - 100);
    expect(tookMs).toBeLessThan(SLOW_PAGE_MS - 2_000);
    const hanging = `${site.url}/hanging?run=hang`;
    expect(body.results.map((entry) => entry.url)).toEqual([`${site.url}/quick-a?run=hang`, hanging, `${site.url}/quick-b?run=hang`]);
    expect(body.results[0].content).toContain('says');
    expect(body.results[1].content).toBe('Snippet of /hanging.');
    expect(body.warnings).toEqual([expect.stringContaining(hanging)]);
    expect(await detailOf(body.request_id)).toEqual(
      expect.objectContaining({ fetched: 2, still_loading: 1, content_wait: expect.objectContaining({ ended: 'budget', budget_ms: BASIC_BUDGET_MS }) }),
    );

    // The fetch went on after the answer: the page reaches the store, and the next search reads it from there.
    let stored = null;
    for (let attempt = 0; attempt < 150 && !stored; attempt += 1) {
      stored = await gateway.prisma.document.findFirst({ where: { url: hanging } });
      if (!stored) await new Promise((done) => setTimeout(done, 100));
    }
    expect(stored?.text).toContain(`hang${marker} hanging in full`);
    const again = await search(query, { max_results: 3 });
    expect(again.body.results.find((entry) => entry.url === hanging)?.content).toContain(`hang${marker} hanging in full`);
    expect(again.body.warnings).toBeUndefined();
    expect(site.requests.filter((line) => line.includes('/hanging?run=hang'))).toHaveLength(1);
  });

  it('lets the first pages to arrive stand in for a better-ranked one still loading', async () => {
    const query = `hedge${marker}`;
    upstream[query] = [result('/slow-top', 'hedge', 4), result('/quick-a', 'hedge', 3), result('/quick-b', 'hedge', 2), result('/quick-c', 'hedge', 1)];
    const { status, body, tookMs } = await search(query, { max_results: 2 });
    expect(status).toBe(200);
    expect(tookMs).toBeLessThan(SLOW_PAGE_MS - 2_000);
    // Twice as many candidates as results were fetched; the two best of those that answered are shown, with their pages.
    expect(body.results.map((entry) => entry.url)).toEqual([`${site.url}/quick-a?run=hedge`, `${site.url}/quick-b?run=hedge`]);
    expect(body.results.every((entry) => entry.content.includes('in full'))).toBe(true);
    expect(body.warnings).toBeUndefined();
    expect(await detailOf(body.request_id)).toEqual(expect.objectContaining({ content_wait: expect.objectContaining({ ended: 'first' }) }));
  });

  it('shows the best-ranked pages as soon as they have arrived, without waiting for the hedges', async () => {
    const query = `best${marker}`;
    upstream[query] = [result('/quick-a', 'best', 4), result('/quick-b', 'best', 3), result('/slow-top', 'best', 2), result('/hanging', 'best', 1)];
    const { body, tookMs } = await search(query, { max_results: 2 });
    expect(tookMs).toBeLessThan(SLOW_PAGE_MS - 2_000);
    expect(body.results.map((entry) => entry.url)).toEqual([`${site.url}/quick-a?run=best`, `${site.url}/quick-b?run=best`]);
    expect(await detailOf(body.request_id)).toEqual(expect.objectContaining({ content_wait: expect.objectContaining({ ended: 'best' }) }));
  });

  it("waits as long as the caller's timeout for the best pages", async () => {
    const query = `patient${marker}`;
    upstream[query] = [result('/medium', 'patient', 3), result('/quick-a', 'patient', 2), result('/quick-b', 'patient', 1)];
    const { status, body, tookMs } = await search(query, { max_results: 2, timeout: 10 });
    expect(status).toBe(200);
    expect(tookMs).toBeGreaterThanOrEqual(4_000);
    expect(body.results.map((entry) => entry.url)).toEqual([`${site.url}/medium?run=patient`, `${site.url}/quick-a?run=patient`]);
    expect(body.results[0].content).toContain(`patient${marker} medium in full`);
    expect(body.warnings).toBeUndefined();
  });

  it('refuses a timeout outside 1 to 60 seconds with a 400 naming the field', async () => {
    for (const timeout of [0.5, 61, 'soon']) {
      const { status, body } = await callGateway<{ detail: { error: string } }>(gateway.baseUrl, 'POST', '/search', { apiKey, body: { query: marker, timeout } });
      expect(status).toBe(400);
      expect(body.detail.error).toMatch(/timeout/);
    }
  });
});
