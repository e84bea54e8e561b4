import { callGateway, createTestAccount, createTestKey, type OwnRedisServer, startOwnRedisServer, timed } from '@sift/testing';
import { startTestGateway, TestGateway, uniqueClientIp } from '../testing/gateway-harness';

jest.setTimeout(60_000);

interface ErrorBody {
  detail: { error: string };
}

// Issue 16 item 7: with Redis down, every keyed request and /health hung until it came back.
describe('a Redis outage', () => {
  let redis: OwnRedisServer;
  let gateway: TestGateway;
  let apiKey: string;

  beforeAll(async () => {
    redis = await startOwnRedisServer();
    gateway = await startTestGateway({ REDIS_URL: redis.url, QUEUE_PREFIX: `test-outage-${redis.port}` });
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    apiKey = (await createTestKey(gateway.prisma, account.id)).apiKey;
  });

  afterAll(async () => {
    // The gateway closes while its Redis answers, then the Redis goes: nothing of the gateway is left reconnecting.
    await gateway?.close();
    redis.stop();
  });

  it('answers 503 with Retry-After within 2 s while Redis is down, keeps deadlines, and recovers without a restart', async () => {
    expect((await callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey })).status).toBe(200);
    // An extract whose job waits (no worker on this queue) while Redis goes away keeps its deadline.
    const waitingExtract = timed(() => callGateway(gateway.baseUrl, 'POST', '/extract', { apiKey, body: { urls: ['https://example.com/'], timeout: 3 } }));
    await new Promise((resolve) => setTimeout(resolve, 500));

    redis.stop();
    const underLoad = await Promise.all([
      ...Array.from({ length: 4 }, () => timed(() => callGateway<ErrorBody>(gateway.baseUrl, 'GET', '/usage', { apiKey }))),
      ...Array.from({ length: 2 }, () =>
        timed(() => callGateway<ErrorBody>(gateway.baseUrl, 'POST', '/extract', { apiKey, body: { urls: ['https://example.com/'] } })),
      ),
      timed(() =>
        callGateway<ErrorBody>(gateway.baseUrl, 'POST', '/search', { headers: { 'X-Service-Access-Mode': 'keyless', 'X-Forwarded-For': uniqueClientIp() }, body: { query: 'q' } }),
      ),
    ]);
    for (const { answer, ms } of underLoad) {
      expect(ms).toBeLessThan(2_500);
      expect(answer.status).toBe(503);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(answer.body.detail.error).toMatch(/temporarily unavailable/);
    }
    const health = await timed(() => callGateway<{ status: string; redis: string }>(gateway.baseUrl, 'GET', '/health'));
    expect(health.ms).toBeLessThan(2_500);
    expect(health.answer.status).toBe(503);
    expect(health.answer.body).toMatchObject({ status: 'error', redis: 'unreachable' });

    const extract = await waitingExtract;
    expect(extract.ms).toBeLessThan(3_000 + 2_500);
    expect([200, 503]).toContain(extract.answer.status);

    redis.start();
    const startedAt = Date.now();
    let status = 0;
    while (status !== 200 && Date.now() - startedAt < 15_000) {
      status = (await callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey })).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe(200);
    expect((await callGateway<{ redis: string }>(gateway.baseUrl, 'GET', '/health')).body.redis).toBe('ok');
  });
});
