import type { ServerResponse } from 'node:http';
import { FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { callGateway, createTestAccount, createTestKey, type TestKey } from '@sift/testing';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';

jest.setTimeout(120_000);

const ARTICLE = (title: string, links = '') =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>` +
  `<p>${'A paragraph long enough to count as the main content of this page. '.repeat(8)}</p>${links}</article></body></html>`;

/**
 * Short locks so a killed worker's job comes back in about three seconds; not shorter, or a live worker slowed by
 * a busy machine misses its lock renewal and loses the job too.
 */
const FAST_RECOVERY = { QUEUE_LOCK_DURATION_MS: '3000', QUEUE_STALLED_INTERVAL_MS: '500' };

// Issue 16 item 8: a killed worker's job came back only after 30–65 s, and a crawl whose job timed out answered
// 500. Now the job moves to a live worker within seconds, is charged once, and a traversal without an answer
// returns what it has (nothing, marked partial) instead of a 500.
describe('a worker killed while it works', () => {
  const prefix = `test-crash-${Date.now()}`;
  const held: ServerResponse[] = [];
  const hits = new Map<string, number>();
  let site: FixtureServer;
  let gateway: TestGateway;
  const workers: WorkerProcess[] = [];

  /** The first request for a path hangs (the worker that made it is then killed); later ones are answered. */
  const hangFirst = (path: string, body: string) => (_request: unknown, response: ServerResponse) => {
    const count = (hits.get(path) ?? 0) + 1;
    hits.set(path, count);
    if (count === 1) return void held.push(response);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  };

  beforeAll(async () => {
    site = await startFixtureServer({
      '/article': hangFirst('/article', ARTICLE('Resumed article', '<p>Served to the second worker.</p>')),
      '/': hangFirst('/', ARTICLE('Home', '<a href="/one">one</a> <a href="/two">two</a>')),
      '/one': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE('One')),
      '/two': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE('Two')),
    });
    gateway = await startTestGateway({ QUEUE_PREFIX: prefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32' });
  });

  afterAll(async () => {
    for (const response of held) response.destroy();
    await Promise.all([gateway?.close(), ...workers.map((worker) => worker.stop()), site?.close()]);
  });

  async function newKey(): Promise<TestKey> {
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    return createTestKey(gateway.prisma, account.id);
  }

  async function chargesOf(key: TestKey) {
    const rows = await gateway.prisma.creditLedger.findMany({ where: { apiKeyId: key.id }, select: { requestId: true, kind: true } });
    const reservations = await gateway.prisma.creditReservation.count({ where: { apiKeyId: key.id } });
    return { rows, reservations };
  }

  async function startWorker(app: 'extractor-worker' | 'crawler-worker'): Promise<WorkerProcess> {
    const worker = await startWorkerProcess(app, { QUEUE_PREFIX: prefix, ...FAST_RECOVERY });
    workers.push(worker);
    return worker;
  }

  async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
    const startedAt = Date.now();
    while (!condition()) {
      if (Date.now() - startedAt > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('extract: the job resumes on another worker within seconds and is charged once', async () => {
    const key = await newKey();
    const first = await startWorker('extractor-worker');
    const answer = callGateway<{ results: Array<{ url: string; raw_content: string }>; request_id: string }>(gateway.baseUrl, 'POST', '/extract', {
      apiKey: key.apiKey,
      body: { urls: [`${site.url}/article`], timeout: 40 },
    });
    await until(() => (hits.get('/article') ?? 0) >= 1, 20_000);
    await startWorker('extractor-worker');
    const killedAt = Date.now();
    await first.kill();

    const response = await answer;
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    expect(response.status).toBe(200);
    expect(response.body.results.map((result) => result.raw_content).join('')).toContain('Served to the second worker.');
    const charges = await chargesOf(key);
    expect(charges.rows.map((row) => row.requestId)).toEqual([response.body.request_id]);
    expect(charges.reservations).toBe(0);
  });

  it('crawl: the job resumes on another worker within seconds; with no worker left a map answers a partial result, not a 500', async () => {
    const key = await newKey();
    const first = await startWorker('crawler-worker');
    const answer = callGateway<{ results: Array<{ url: string }>; request_id: string }>(gateway.baseUrl, 'POST', '/crawl', {
      apiKey: key.apiKey,
      body: { url: `${site.url}/`, max_depth: 1, limit: 5, timeout: 40 },
    });
    await until(() => (hits.get('/') ?? 0) >= 1, 20_000);
    const second = await startWorker('crawler-worker');
    const killedAt = Date.now();
    await first.kill();

    const response = await answer;
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    expect(response.status).toBe(200);
    expect(response.body.results.map((result) => new URL(result.url).pathname).sort()).toEqual(['/', '/one', '/two']);
    const charges = await chargesOf(key);
    expect(new Set(charges.rows.map((row) => row.requestId))).toEqual(new Set([response.body.request_id]));
    expect(charges.rows.length).toBe(2);
    expect(charges.reservations).toBe(0);

    await second.kill();
    const startedAt = Date.now();
    const partial = await callGateway<{ results: string[] }>(gateway.baseUrl, 'POST', '/map', { apiKey: key.apiKey, body: { url: `${site.url}/`, timeout: 10 } });
    expect(partial.status).toBe(200);
    expect(partial.body.results).toEqual([]);
    expect(Date.now() - startedAt).toBeLessThan(10_000 + 7_000);
  });
});
