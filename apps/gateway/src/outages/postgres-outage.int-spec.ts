import { webPageOf } from '@sift/content-extraction';
import { PageRepository } from '@sift/pages';
import { callGateway, createTestAccount, createTestKey, type SeverableProxy, startSeverableProxy, timed } from '@sift/testing';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';

jest.setTimeout(60_000);

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

/**
 * The gateway reaches the shared Postgres through a loopback proxy the test severs (every open connection dropped,
 * new ones refused, as when the server stops) and restores; nothing else is touched.
 */
describe('a Postgres outage', () => {
  let proxy: SeverableProxy;
  let gateway: TestGateway;
  let apiKey: string;
  let unseenKey: string;
  const marker = `pgoutage${Date.now().toString(36)}`;

  beforeAll(async () => {
    const database = new URL(process.env.DATABASE_URL as string);
    proxy = await startSeverableProxy(database.hostname, Number(database.port || 5432));
    gateway = await startTestGateway({ DATABASE_URL: proxy.urlFor(database.toString()) });
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    apiKey = (await createTestKey(gateway.prisma, account.id)).apiKey;
    // A key the gateway has not seen yet: authenticating it needs Postgres.
    unseenKey = (await createTestKey(gateway.prisma, account.id)).apiKey;
    const text = `The ${marker} observatory maps the southern sky. Its ${marker} telescope records a comet every winter.`;
    await new PageRepository(gateway.prisma).save('operator', webPageOf({ finalUrl: `https://${marker}.example/observatory`, title: `${marker} observatory`, text, language: 'en' }), 'import');
  });

  afterAll(async () => {
    proxy?.restore();
    await gateway?.close();
    await proxy?.close();
  });

  const search = (key: string) => callGateway<ErrorBody>(gateway.baseUrl, 'POST', '/search', { apiKey: key, body: { query: `${marker} observatory` } });

  it('answers keyed requests 503 with Retry-After within a few seconds while Postgres is down, and 200 once it is back', async () => {
    expect((await search(apiKey)).status).toBe(200);

    proxy.sever();
    const during = await Promise.all([
      timed(() => search(apiKey)),
      timed(() => search(apiKey)),
      timed(() => search(unseenKey)),
      timed(() => callGateway<ErrorBody>(gateway.baseUrl, 'GET', '/usage', { apiKey })),
      timed(() => callGateway<ErrorBody>(gateway.baseUrl, 'POST', '/logs', { apiKey, body: {} })),
    ]);
    for (const { answer, ms } of during) {
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 503, body: { detail: { error: expect.stringMatching(/temporarily unavailable.*database/i) } } });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      // Generous: the machine is shared; the point is seconds, not the pool's or the kernel's minutes.
      expect(ms).toBeLessThan(8_000);
    }

    proxy.restore();
    const startedAt = Date.now();
    let status = 0;
    while (status !== 200 && Date.now() - startedAt < 20_000) {
      status = (await search(apiKey)).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(200);
    expect((await search(unseenKey)).status).toBe(200);
  });

  describe('when Postgres stops answering (an unreachable host rather than a refused connection)', () => {
    let silent: SeverableProxy;
    let quiet: TestGateway;

    beforeAll(async () => {
      const database = new URL(process.env.DATABASE_URL as string);
      silent = await startSeverableProxy(database.hostname, Number(database.port || 5432));
      quiet = await startTestGateway({ DATABASE_URL: silent.urlFor(database.toString()) });
    });

    afterAll(async () => {
      silent?.restore();
      await quiet?.close();
      await silent?.close();
    });

    it('answers 503 with Retry-After once the connection attempt times out, instead of waiting for the kernel', async () => {
      const quietSearch = () => callGateway<ErrorBody>(quiet.baseUrl, 'POST', '/search', { apiKey: unseenKey, body: { query: `${marker} observatory` } });
      expect((await quietSearch()).status).toBe(200);
      silent.silence();
      const during = await Promise.all([
        within(15_000, () => timed(quietSearch)),
        within(15_000, () => timed(() => callGateway<ErrorBody>(quiet.baseUrl, 'POST', '/logs', { apiKey: unseenKey, body: {} }))),
      ]);
      for (const outcome of during) {
        expect(outcome).not.toBeNull();
        const { answer, ms } = outcome as { answer: Awaited<ReturnType<typeof quietSearch>>; ms: number };
        expect({ status: answer.status, body: answer.body }).toEqual({ status: 503, body: { detail: { error: expect.stringMatching(/temporarily unavailable.*database/i) } } });
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(ms).toBeLessThan(12_000);
      }
      silent.restore();
      const startedAt = Date.now();
      let status = 0;
      while (status !== 200 && Date.now() - startedAt < 20_000) {
        status = (await quietSearch()).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(status).toBe(200);
    });
  });
});
