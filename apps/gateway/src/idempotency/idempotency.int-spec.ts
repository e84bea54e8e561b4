import { randomUUID } from 'node:crypto';
import { callGateway, createTestAccount, createTestKey, type GatewayAnswer } from '@sift/testing';
import { FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';

interface Usage {
  key: { usage: number; search_usage: number; extract_usage: number };
}

const ARTICLE = `<!doctype html><html lang="en"><head><title>Retried page</title></head><body><article><h1>Retried page</h1>
<p>${'A page that takes a while to answer, so retries arrive while the first request is still running. '.repeat(10)}</p></article></body></html>`;

/** How long the slow page takes: long enough that every concurrent retry arrives while the first request runs. */
const SLOW_PAGE_MS = 1_500;

// Two gateways on one Redis and one queue, a real extractor worker and a loopback site whose page is slow.
describe('Idempotency-Key on the tenant POST routes', () => {
  let gateway: TestGateway;
  let otherGateway: TestGateway;
  let worker: WorkerProcess;
  let site: FixtureServer;
  let slowPageHits = 0;

  beforeAll(async () => {
    site = await startFixtureServer({
      '/slow': (_request, response) => {
        slowPageHits += 1;
        setTimeout(() => response.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE), SLOW_PAGE_MS);
      },
    });
    worker = await startWorkerProcess('extractor-worker');
    const env = { QUEUE_PREFIX: worker.queuePrefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32' };
    gateway = await startTestGateway(env);
    otherGateway = await startTestGateway(env);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([gateway?.close(), otherGateway?.close(), worker?.stop(), site?.close()]);
  });

  async function newKey(options: { zeroDataRetention?: boolean } = {}): Promise<string> {
    const account = await createTestAccount(gateway.prisma, { plan: 'growth', ...options });
    return (await createTestKey(gateway.prisma, account.id)).apiKey;
  }

  function post<Body = Record<string, unknown>>(on: TestGateway, path: string, apiKey: string, body: unknown, idempotencyKey?: string): Promise<GatewayAnswer<Body>> {
    return callGateway<Body>(on.baseUrl, 'POST', path, { apiKey, body, headers: idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey } });
  }

  function slowPages(run: string): string[] {
    return [1, 2, 3, 4, 5].map((page) => `${site.url}/slow?${run}=${page}`);
  }

  async function usageOf(apiKey: string): Promise<Usage['key']> {
    const usage = await callGateway<Usage>(gateway.baseUrl, 'GET', '/usage', { apiKey });
    expect(usage.status).toBe(200);
    return usage.body.key;
  }

  async function loggedRequests(apiKey: string): Promise<string[]> {
    const logs = await callGateway<{ logs: Array<{ request_id: string }> }>(gateway.baseUrl, 'POST', '/logs', { apiKey, body: {} });
    expect(logs.status).toBe(200);
    return logs.body.logs.map((log) => log.request_id);
  }

  it('answers a retry with the first answer, marked as replayed, and charges and logs the request once', async () => {
    const apiKey = await newKey();
    const key = randomUUID();
    const first = await post<{ request_id: string }>(gateway, '/search', apiKey, { query: 'idempotent retries', max_results: 3, search_depth: 'basic' }, key);
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The same body with its fields in another order is the same request.
    const retry = await post(gateway, '/search', apiKey, { search_depth: 'basic', max_results: 3, query: 'idempotent retries' }, key);
    expect({ status: retry.status, replayed: retry.headers.get('idempotent-replayed'), body: retry.body }).toEqual({ status: 200, replayed: 'true', body: first.body });
    expect((await usageOf(apiKey)).search_usage).toBe(1);
    expect(await loggedRequests(apiKey)).toEqual([first.body.request_id]);
  });

  it('runs and charges every request without the header, as before', async () => {
    const apiKey = await newKey();
    const first = await post<{ request_id: string }>(gateway, '/search', apiKey, { query: 'no key given' });
    const second = await post<{ request_id: string }>(gateway, '/search', apiKey, { query: 'no key given' });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.request_id).not.toBe(first.body.request_id);
    expect((await usageOf(apiKey)).search_usage).toBe(2);
  });

  it('refuses the key with another body or route with 422, and keeps the first answer for the right one', async () => {
    const apiKey = await newKey();
    const key = randomUUID();
    const first = await post(gateway, '/search', apiKey, { query: 'first question' }, key);
    expect(first.status).toBe(200);
    for (const [path, body] of [['/search', { query: 'another question' }], ['/extract', { query: 'first question' }]] as const) {
      const refused = await post(gateway, path, apiKey, body, key);
      expect({ path, status: refused.status, body: refused.body }).toEqual({
        path,
        status: 422,
        body: { detail: { error: 'Idempotency-Key was already used with a different request (method, path or body); use a new key for a new request.' } },
      });
    }
    const retry = await post(gateway, '/search', apiKey, { query: 'first question' }, key);
    expect({ status: retry.status, body: retry.body }).toEqual({ status: 200, body: first.body });
    expect((await usageOf(apiKey)).search_usage).toBe(1);
  });

  it('keeps keys apart per API key: another key with the same Idempotency-Key runs its own request', async () => {
    const [apiKey, otherApiKey] = await Promise.all([newKey(), newKey()]);
    const key = randomUUID();
    const first = await post<{ request_id: string }>(gateway, '/search', apiKey, { query: 'shared key' }, key);
    const other = await post<{ request_id: string }>(gateway, '/search', otherApiKey, { query: 'shared key' }, key);
    expect([first.status, other.status]).toEqual([200, 200]);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(other.body.request_id).not.toBe(first.body.request_id);
  });

  it('replays a client error (kept), refuses a key over 255 characters with 400, and accepts one of 255', async () => {
    const apiKey = await newKey();
    const key = randomUUID();
    const invalid = await post(gateway, '/search', apiKey, { query: 'q', max_results: 'many' }, key);
    expect(invalid.status).toBe(400);
    const retried = await post(gateway, '/search', apiKey, { query: 'q', max_results: 'many' }, key);
    expect({ status: retried.status, replayed: retried.headers.get('idempotent-replayed'), body: retried.body }).toEqual({ status: 400, replayed: 'true', body: invalid.body });

    const tooLong = await post(gateway, '/search', apiKey, { query: 'q' }, 'k'.repeat(256));
    expect({ status: tooLong.status, body: tooLong.body }).toEqual({ status: 400, body: { detail: { error: 'Idempotency-Key must be 1 to 255 characters long.' } } });
    expect((await post(gateway, '/search', apiKey, { query: 'q' }, `${randomUUID()}${'k'.repeat(219)}`)).status).toBe(200);
    expect((await usageOf(apiKey)).search_usage).toBe(1);
  });

  it('covers the account plane POSTs too: a retried POST /logs is replayed', async () => {
    const apiKey = await newKey();
    const key = randomUUID();
    const first = await post(gateway, '/logs', apiKey, {}, key);
    expect(first.status).toBe(200);
    const retry = await post(gateway, '/logs', apiKey, {}, key);
    expect({ status: retry.status, replayed: retry.headers.get('idempotent-replayed') }).toEqual({ status: 200, replayed: 'true' });
  });

  it('two gateways, concurrent retries of one key: the pages are fetched once, charged once, and every answer is the same', async () => {
    const apiKey = await newKey();
    const key = randomUUID();
    // Five pages: extract charges 1 credit per 5 pages.
    const body = { urls: slowPages('retry') };
    const hitsBefore = slowPageHits;
    const first = post<{ results: unknown[]; request_id: string }>(gateway, '/extract', apiKey, body, key);
    // The retries leave while the first is still fetching the slow page, half of them through the other gateway.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const retries = [otherGateway, gateway, otherGateway].map((on) => post<{ results: unknown[]; request_id: string }>(on, '/extract', apiKey, body, key));
    const answers = await Promise.all([first, ...retries]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(answers[0].body.results).toHaveLength(5);
    for (const answer of answers.slice(1)) expect(answer.body).toEqual(answers[0].body);
    expect(answers.map((answer) => answer.headers.get('idempotent-replayed'))).toEqual([null, 'true', 'true', 'true']);
    expect(slowPageHits - hitsBefore).toBe(5);
    expect((await usageOf(apiKey)).extract_usage).toBe(1);
    expect(await loggedRequests(apiKey)).toEqual([answers[0].body.request_id]);
  });

  it('two gateways, simultaneous first requests of one key: exactly one runs, the others get its answer', async () => {
    const apiKey = await newKey();
    const key = randomUUID();
    const body = { urls: slowPages('race') };
    const hitsBefore = slowPageHits;
    const answers = await Promise.all([gateway, otherGateway, gateway, otherGateway].map((on) => post<{ request_id: string }>(on, '/extract', apiKey, body, key)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((answer) => JSON.stringify(answer.body))).size).toBe(1);
    expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    expect(slowPageHits - hitsBefore).toBe(5);
    expect((await usageOf(apiKey)).extract_usage).toBe(1);
  });

  it('does not keep the answer for a zero-data-retention account: a retry is refused with 409 and not charged', async () => {
    const apiKey = await newKey({ zeroDataRetention: true });
    const key = randomUUID();
    expect((await post(gateway, '/search', apiKey, { query: 'private question' }, key)).status).toBe(200);
    const retry = await post(gateway, '/search', apiKey, { query: 'private question' }, key);
    expect({ status: retry.status, body: retry.body }).toEqual({
      status: 409,
      body: { detail: { error: 'A request with this Idempotency-Key already completed with status 200; its answer is not kept for a zero-data-retention account.' } },
    });
    expect((await usageOf(apiKey)).search_usage).toBe(1);
  });
});
