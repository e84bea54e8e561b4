import { RequestLogRepository } from '@sift/persistence';
import { callGateway, createTestAccount, createTestKey } from '@sift/testing';
import { RequestLogWriter } from '../request-log/request-log-writer.service';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';

describe('Per-key rate limits over HTTP (real Redis)', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway({ RATE_LIMIT_DEV_PER_MINUTE: '3', RATE_LIMIT_USAGE_PER_10_MINUTES: '2' });
  });

  afterAll(async () => {
    await gateway.close();
  });

  async function givenKey(environment: 'dev' | 'prod' = 'dev') {
    const account = await createTestAccount(gateway.prisma, { plan: 'startup', name: 'rate' });
    return createTestKey(gateway.prisma, account.id, { environment });
  }

  const feedback = (apiKey: string) => callGateway(gateway.baseUrl, 'POST', '/feedback', { apiKey, body: { session_id: 'rate-limit' } });

  it('lets a development key make its per-minute budget, then answers 429 with Retry-After and detail.error', async () => {
    const { apiKey } = await givenKey('dev');
    for (let request = 0; request < 3; request += 1) expect((await feedback(apiKey)).status).toBe(200);
    const refused = await feedback(apiKey);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body).toEqual({ detail: { error: expect.stringMatching(/rate limit/i) } });
    expect(refused.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("records a data-plane request the rate limit refused in the key's request log, with its 429", async () => {
    const account = await createTestAccount(gateway.prisma, { plan: 'startup', name: 'rate-logged' });
    const { apiKey } = await createTestKey(gateway.prisma, account.id, { environment: 'dev' });
    // Refused by validation (no worker needed), but each one spends the key's budget.
    for (let request = 0; request < 3; request += 1) expect((await callGateway(gateway.baseUrl, 'POST', '/extract', { apiKey, body: {} })).status).toBe(400);
    const refused = await callGateway(gateway.baseUrl, 'POST', '/extract', { apiKey, body: {} });
    expect(refused.status).toBe(429);
    await gateway.app.get(RequestLogWriter).flush();
    const row = await gateway.app.get(RequestLogRepository).findByRequestId(account.id, refused.headers.get('x-request-id') as string);
    expect(row).toMatchObject({ endpoint: 'extract', statusCode: 429, credits: 0 });
  });

  it('counts each key on its own: another key of the same account is not refused', async () => {
    const first = await givenKey('dev');
    for (let request = 0; request < 4; request += 1) await feedback(first.apiKey);
    expect((await feedback(first.apiKey)).status).toBe(429);
    const second = await givenKey('dev');
    expect((await feedback(second.apiKey)).status).toBe(200);
  });

  it('refuses concurrent bursts at the limit exactly', async () => {
    const { apiKey } = await givenKey('dev');
    const statuses = (await Promise.all(Array.from({ length: 10 }, () => feedback(apiKey)))).map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
  });

  it('gives production keys the production budget', async () => {
    const { apiKey } = await givenKey('prod');
    for (let request = 0; request < 5; request += 1) expect((await feedback(apiKey)).status).toBe(200);
  });

  it('limits GET /usage by its own budget with the same blocked-for-excessive-requests error', async () => {
    const { apiKey } = await givenKey('prod');
    expect((await callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey })).status).toBe(200);
    expect((await callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey })).status).toBe(200);
    const refused = await callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(60);
    expect(refused.body).toEqual({ detail: { error: expect.stringMatching(/rate limit/i) } });
    // The usage budget is separate: the key can still call other endpoints.
    expect((await feedback(apiKey)).status).toBe(200);
  });
});
