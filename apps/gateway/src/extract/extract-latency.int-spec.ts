import type { IncomingMessage, ServerResponse } from 'node:http';
import { callGateway, createTestAccount, createTestKey, eventually } from '@sift/testing';
import { FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { RequestLogWriter } from '../request-log/request-log-writer.service';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';

interface ExtractBody {
  results: Array<{ url: string; raw_content: string }>;
  failed_results: Array<{ url: string; error: string }>;
  request_id: string;
}

interface UrlDetail {
  url: string;
  ms: number;
  outcome: 'ok' | 'failed';
  via?: string;
}

/** The slowest page of the request; the others answer sooner, by steps. */
const SLOWEST_MS = 1_500;

// POST /extract of many URLs on a web that takes its time: the answer waits for the slowest URL, not for a worker
// slot behind the others, and the request log says each URL's time and outcome. A real extractor worker fetches.
describe('POST /extract of ten slow URLs', () => {
  let gateway: TestGateway;
  let worker: WorkerProcess;
  let site: FixtureServer;
  let apiKey: string;

  /** When each page's request reached the site, by its URL's path and query. */
  const arrivals = new Map<string, number>();
  const slowPage = (request: IncomingMessage, response: ServerResponse): void => {
    arrivals.set(request.url ?? '', Date.now());
    const url = new URL(request.url ?? '/', 'http://site');
    const delayMs = Number(url.searchParams.get('ms'));
    const timer = setTimeout(() => {
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><title>Page ${delayMs}</title><article><h1>Page ${delayMs}</h1><p>${'Slow but complete text. '.repeat(20)}</p></article>`);
    }, delayMs);
    response.on('close', () => clearTimeout(timer));
  };

  beforeAll(async () => {
    site = await startFixtureServer({ '/slow': slowPage, '/missing': (_request, response) => response.writeHead(404).end('no') });
    worker = await startWorkerProcess('extractor-worker');
    gateway = await startTestGateway({ QUEUE_PREFIX: worker.queuePrefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32' });
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    apiKey = (await createTestKey(gateway.prisma, account.id)).apiKey;
    // Warm the worker's parsing thread and the queue subscriptions: the test is about the pages' time.
    await callGateway(gateway.baseUrl, 'POST', '/extract', { apiKey, body: { urls: [`${site.url}/slow?ms=1&warm=1`] } });
  }, 120_000);

  afterAll(async () => {
    await Promise.all([gateway?.close(), worker?.stop(), site?.close()]);
  });

  /** The request log's detail of a request, once the log has it. */
  async function loggedDetail(requestId: string): Promise<{ urls: UrlDetail[] } | undefined> {
    let detail: { urls: UrlDetail[] } | undefined;
    for (let attempt = 0; attempt < 50 && !detail; attempt += 1) {
      await gateway.app.get(RequestLogWriter).flush();
      const logged = await gateway.prisma.requestLog.findUnique({ where: { requestId } });
      detail = (logged?.detail as { urls: UrlDetail[] } | undefined) ?? undefined;
      if (!detail) await new Promise((done) => setTimeout(done, 20));
    }
    return detail;
  }

  it('answers at the slowest URL with every URL started at once, and logs each URL with its time and outcome', async () => {
    // Ten pages that each take most of the slowest one's time: queued behind a few worker slots, the last would
    // start only when the first finish, and the answer would take about twice the slowest page.
    const urls = [...Array.from({ length: 9 }, (_unused, index) => `${site.url}/slow?ms=${SLOWEST_MS - 50 * (index + 1)}`), `${site.url}/slow?ms=${SLOWEST_MS}`];
    const startedAt = Date.now();
    const { status, body } = await callGateway<ExtractBody>(gateway.baseUrl, 'POST', '/extract', { apiKey, body: { urls: [...urls, `${site.url}/missing`] } });
    const tookMs = Date.now() - startedAt;
    expect(status).toBe(200);
    expect(body.results).toHaveLength(10);
    expect(body.failed_results.map((failure) => failure.url)).toEqual([`${site.url}/missing`]);
    expect(tookMs).toBeGreaterThanOrEqual(SLOWEST_MS);
    // Every page was asked for at once: queued behind 8 worker slots, the last two would have been asked for only once
    // the first had answered, over 1 s later. (The answer's time itself moves with the machine's load.)
    const asked = urls.map((url) => arrivals.get(url.slice(site.url.length)) ?? Number.NaN);
    expect(Math.max(...asked) - Math.min(...asked)).toBeLessThan(800);
    expect(tookMs).toBeLessThan(SLOWEST_MS + 2_000);

    const detail = await loggedDetail(body.request_id);
    expect(detail?.urls.map((entry) => entry.url)).toEqual([...urls, `${site.url}/missing`]);
    for (const entry of detail?.urls ?? []) {
      if (entry.url.endsWith('/missing')) {
        expect(entry).toEqual(expect.objectContaining({ outcome: 'failed', error: expect.stringMatching(/404/) }));
        continue;
      }
      expect(entry).toEqual(expect.objectContaining({ outcome: 'ok', via: 'fetch' }));
      expect(entry.ms).toBeGreaterThanOrEqual(Number(new URL(entry.url).searchParams.get('ms')));
    }
    // The answer went when the last URL settled: no URL's time is past the answer's (the order of the slowest few moves
    // with the machine's load, the 1.5 s page is not always the last to finish).
    expect(Math.max(...(detail?.urls ?? []).map((entry) => entry.ms))).toBeLessThanOrEqual(tookMs);
  });

  it('keeps a URL answered from its stored copy in its place among the fetched ones, each with its own time', async () => {
    const stored = `${site.url}/slow?ms=1&kept=1`;
    expect((await callGateway(gateway.baseUrl, 'POST', '/extract', { apiKey, body: { urls: [stored] } })).status).toBe(200);
    // Stored after its answer: the next request finds it once it is there.
    await eventually('the page stored', async () => (await gateway.prisma.document.findFirst({ where: { url: { contains: 'kept=1' } } })) ?? undefined, 15_000, 25);
    const urls = [`${site.url}/slow?ms=600&mixed=1`, stored, `${site.url}/slow?ms=100&mixed=2`];
    const { status, body } = await callGateway<ExtractBody>(gateway.baseUrl, 'POST', '/extract', { apiKey, body: { urls } });
    expect(status).toBe(200);
    expect(body.results.map((result) => result.url)).toEqual(urls);
    const detail = await loggedDetail(body.request_id);
    expect(detail?.urls.map((entry) => [entry.url, entry.via])).toEqual([
      [urls[0], 'fetch'],
      [stored, 'store'],
      [urls[2], 'fetch'],
    ]);
    const [slow, copy, quick] = detail?.urls ?? [];
    // Each fetched URL's own time, not its neighbour's: the 600 ms page is timed past 600 ms, the 100 ms one before it.
    expect(slow.ms).toBeGreaterThanOrEqual(600);
    expect(quick.ms).toBeGreaterThanOrEqual(100);
    expect(quick.ms).toBeLessThan(slow.ms);
    expect(copy.ms).toBeLessThan(100);
  });
});
