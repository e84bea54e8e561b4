import { webPageOf } from '@sift/content-extraction';
import { PageRepository, STORE_WAIT_MS } from '@sift/pages';
import { createPrismaClient, FAIL_FAST_CONNECTION_MS, QUERY_ANSWER_MS, queryRows } from '@sift/persistence';
import { callGateway, createTestAccount, createTestKey, type GatewayAnswer, type SeverableProxy, startSeverableProxy, timed } from '@sift/testing';
import { FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { startWorkerProcess, type WorkerProcess } from '../testing/worker-process';

jest.setTimeout(90_000);

interface ErrorBody {
  detail: { error: string };
}

/** The answer, or null when none came within `ms` (the request is left hanging). */
async function within<T>(ms: number, call: () => Promise<T>): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  try {
    return await Promise.race([call(), late]);
  } finally {
    clearTimeout(timer);
  }
}

type Answer = GatewayAnswer<ErrorBody>;

/** Each outcome came, within `ms`, as the answer to a database outage: 503 with Retry-After, in the error shape. */
function expectUnavailableWithin(outcomes: Array<{ answer: Answer; ms: number } | null>, ms: number): void {
  for (const outcome of outcomes) {
    expect(outcome).not.toBeNull();
    const { answer, ms: took } = outcome as { answer: Answer; ms: number };
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 503, body: { detail: { error: expect.stringMatching(/temporarily unavailable.*database/i) } } });
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(took).toBeLessThan(ms);
  }
}

/** The status `call` answers once it answers 200, or its last within 20 s. */
async function statusOnceBack(call: () => Promise<Answer>): Promise<number> {
  const startedAt = Date.now();
  let status = 0;
  while (status !== 200 && Date.now() - startedAt < 20_000) {
    status = (await call()).status;
    if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return status;
}

/** A gateway that reaches the shared Postgres through its own proxy, for the describe block that calls it. */
function gatewayBehindProxy(): { proxy: SeverableProxy; gateway: TestGateway } {
  const setup = {} as { proxy: SeverableProxy; gateway: TestGateway };
  beforeAll(async () => {
    const database = new URL(process.env.DATABASE_URL as string);
    setup.proxy = await startSeverableProxy(database.hostname, Number(database.port || 5432));
    setup.gateway = await startTestGateway({ DATABASE_URL: setup.proxy.urlFor(database.toString()) });
  });
  afterAll(async () => {
    setup.proxy?.restore();
    await setup.gateway?.close();
    await setup.proxy?.close();
  });
  return setup;
}

/**
 * Each gateway reaches the shared Postgres through a loopback proxy of its own, which the test severs (every open
 * connection dropped, new ones refused, as when the server stops), silences or freezes, then restores; nothing else
 * is touched.
 */
describe('a Postgres outage', () => {
  const behind = gatewayBehindProxy();
  let apiKey: string;
  let unseenKey: string;
  const marker = `pgoutage${Date.now().toString(36)}`;

  beforeAll(async () => {
    const account = await createTestAccount(behind.gateway.prisma, { plan: 'growth' });
    apiKey = (await createTestKey(behind.gateway.prisma, account.id)).apiKey;
    // A key the gateway has not seen yet: authenticating it needs Postgres.
    unseenKey = (await createTestKey(behind.gateway.prisma, account.id)).apiKey;
    const text = `The ${marker} observatory maps the southern sky. Its ${marker} telescope records a comet every winter.`;
    await new PageRepository(behind.gateway.prisma).save('operator', webPageOf({ finalUrl: `https://${marker}.example/observatory`, title: `${marker} observatory`, text, language: 'en' }), 'import');
  });

  /** A call to the gateway of `setup` with `key`. */
  const callerOf = (setup: { gateway: TestGateway }) => (method: 'POST' | 'GET', path: string, key: string, body?: unknown) =>
    callGateway<ErrorBody>(setup.gateway.baseUrl, method, path, { apiKey: key, ...(body ? { body } : {}) });
  const searchOf = (setup: { gateway: TestGateway }) => (key: string) => callerOf(setup)('POST', '/search', key, { query: `${marker} observatory` });

  it('answers keyed requests 503 with Retry-After within a few seconds while Postgres is down, and 200 once it is back', async () => {
    const call = callerOf(behind);
    const search = searchOf(behind);
    expect((await search(apiKey)).status).toBe(200);

    behind.proxy.sever();
    const during = await Promise.all([
      timed(() => search(apiKey)),
      timed(() => search(apiKey)),
      timed(() => search(unseenKey)),
      timed(() => call('GET', '/usage', apiKey)),
      timed(() => call('POST', '/logs', apiKey, {})),
    ]);
    // Generous: the machine is shared; the point is seconds, not the pool's or the kernel's minutes.
    expectUnavailableWithin(during, 8_000);

    behind.proxy.restore();
    expect(await statusOnceBack(() => search(apiKey))).toBe(200);
    expect((await search(unseenKey)).status).toBe(200);
  });

  describe('when Postgres stops answering (an unreachable host rather than a refused connection)', () => {
    const quiet = gatewayBehindProxy();

    it('answers 503 with Retry-After once the connection attempt times out, instead of waiting for the kernel', async () => {
      const search = searchOf(quiet);
      expect((await search(unseenKey)).status).toBe(200);
      quiet.proxy.silence();
      const during = await Promise.all([
        within(15_000, () => timed(() => search(unseenKey))),
        within(15_000, () => timed(() => callerOf(quiet)('POST', '/logs', unseenKey, {}))),
      ]);
      expectUnavailableWithin(during, 12_000);
      quiet.proxy.restore();
      expect(await statusOnceBack(() => search(unseenKey))).toBe(200);
    });
  });

  describe('when Postgres stops answering on the connections the gateway has open (a server paused or partitioned mid-query)', () => {
    const stalled = gatewayBehindProxy();

    it('answers 503 with Retry-After once the statements on open connections go unanswered, and 200 once it answers again', async () => {
      const call = callerOf(stalled);
      const search = searchOf(stalled);
      // Connections open in the pool, as on a gateway in service; the key is known to it.
      const before = await Promise.all([search(apiKey), search(apiKey), call('GET', '/usage', apiKey), call('POST', '/logs', apiKey, {})]);
      expect(before.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
      stalled.proxy.freeze();
      const during = await Promise.all([
        within(QUERY_ANSWER_MS + 15_000, () => timed(() => search(apiKey))),
        within(QUERY_ANSWER_MS + 15_000, () => timed(() => search(unseenKey))),
        within(QUERY_ANSWER_MS + 15_000, () => timed(() => call('GET', '/usage', apiKey))),
        within(QUERY_ANSWER_MS + 15_000, () => timed(() => call('POST', '/logs', apiKey, {}))),
      ]);
      // The statement's bound, then at most a new connection's attempt (3 s) and the machine's slack.
      expectUnavailableWithin(during, QUERY_ANSWER_MS + 8_000);
      stalled.proxy.restore();
      expect(await statusOnceBack(() => search(apiKey))).toBe(200);
    });
  });

  describe('the pool under the gateway, when Postgres stops answering on its open connections', () => {
    let proxy: SeverableProxy;

    beforeAll(async () => {
      const database = new URL(process.env.DATABASE_URL as string);
      proxy = await startSeverableProxy(database.hostname, Number(database.port || 5432));
    });

    afterAll(async () => {
      proxy?.restore();
      await proxy?.close();
    });

    it('drops its idle connections once a statement goes unanswered: the next statement fails within a connection attempt, not another statement bound', async () => {
      const prisma = createPrismaClient(proxy.urlFor(process.env.DATABASE_URL as string), 4, { failFast: true });
      const statement = { text: 'SELECT pg_sleep(0.2) AS slept', values: [] };
      try {
        // Four connections open at once, then idle in the pool, as after a burst of requests.
        await Promise.all([1, 2, 3, 4].map(() => queryRows(prisma, statement)));
        proxy.freeze();
        const unanswered = await timed(() => queryRows(prisma, statement).then(() => null, (error: Error) => error.message));
        expect(unanswered.answer).toMatch(/timeout/i);
        expect(unanswered.ms).toBeGreaterThanOrEqual(QUERY_ANSWER_MS - 100);
        const next = await timed(() => queryRows(prisma, statement).then(() => null, (error: Error) => error.message));
        expect(next.answer).toMatch(/timeout|terminated/i);
        expect(next.ms).toBeLessThan(FAIL_FAST_CONNECTION_MS + 2_000);
        proxy.restore();
        expect(await queryRows(prisma, statement)).toHaveLength(1);
      } finally {
        proxy.restore();
        await prisma.$disconnect();
      }
    });
  });

  describe('when the workers\' Postgres stops answering on the connections they have open', () => {
    const prefix = `test-pg-frozen-${Date.now()}`;
    let site: FixtureServer;
    let frozen: SeverableProxy;
    let extracting: TestGateway;
    let extractor: WorkerProcess;
    let crawler: WorkerProcess;
    const article = (title: string) =>
      `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${`The ${title} page has enough words to be the main content. `.repeat(8)}</p></article></body></html>`;

    beforeAll(async () => {
      site = await startFixtureServer({
        '/stored': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(article('Stored')),
        '/fresh': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(article('Fresh')),
        '/site/': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(article('Home').replace('</article>', '<a href="/site/one">one</a> <a href="/site/two">two</a></article>')),
        '/site/one': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(article('One')),
        '/site/two': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(article('Two')),
      });
      const database = new URL(process.env.DATABASE_URL as string);
      frozen = await startSeverableProxy(database.hostname, Number(database.port || 5432));
      extracting = await startTestGateway({ QUEUE_PREFIX: prefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32' });
      const workerEnv = { QUEUE_PREFIX: prefix, DATABASE_URL: frozen.urlFor(database.toString()) };
      [extractor, crawler] = await Promise.all([startWorkerProcess('extractor-worker', workerEnv), startWorkerProcess('crawler-worker', workerEnv)]);
    });

    afterAll(async () => {
      frozen?.restore();
      await Promise.all([extractor?.stop(), crawler?.stop(), extracting?.close(), site?.close()]);
      await frozen?.close();
    });

    it('still answers /extract with the page at once: the page is stored after the answer', async () => {
      frozen.restore();
      const extract = (path: string) =>
        timed(() => callGateway<{ results: Array<{ url: string; raw_content: string }> }>(extracting.baseUrl, 'POST', '/extract', { apiKey, body: { urls: [`${site.url}${path}?run=${marker}`], timeout: 20 } }));
      // The worker's pool has open connections: a page looked up, fetched and stored through it.
      const before = await extract('/stored');
      expect(before.answer.status).toBe(200);
      frozen.freeze();
      const { answer, ms } = await extract('/fresh');
      expect(answer.status).toBe(200);
      expect(answer.body.results.map((result) => result.raw_content).join('')).toContain('The Fresh page has enough words');
      // The gateway looked the page up (its own database connection answers); the worker's write, frozen, comes after
      // the answer: the answer waits neither the request's 20 s nor the STORE_WAIT_MS a waiting caller gives a store.
      expect(ms).toBeLessThan(STORE_WAIT_MS);
    });

    it('still answers /crawl with its pages, well within its timeout', async () => {
      // Frozen by the test above when it runs first; frozen here for a run of this test alone.
      frozen.freeze();
      const { answer, ms } = await timed(() =>
        callGateway<{ results: Array<{ url: string }> }>(extracting.baseUrl, 'POST', '/crawl', { apiKey, body: { url: `${site.url}/site/`, max_depth: 1, limit: 5, timeout: 40 } }),
      );
      expect(answer.status).toBe(200);
      expect(answer.body.results.map((result) => new URL(result.url).pathname).sort()).toEqual(['/site/', '/site/one', '/site/two']);
      expect(ms).toBeLessThan(15_000);
    });
  });
});
