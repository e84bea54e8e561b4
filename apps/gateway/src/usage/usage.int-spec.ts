import { randomUUID } from 'node:crypto';
import { BillingService } from '@sift/billing';
import { callGateway, createTestAccount, createTestKey } from '@sift/testing';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';

describe('GET /usage over HTTP (real Postgres)', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway();
  });

  afterAll(async () => {
    await gateway.close();
  });

  async function givenUsage() {
    const account = await createTestAccount(gateway.prisma, { plan: 'bootstrap', name: 'usage' });
    const key = await createTestKey(gateway.prisma, account.id, { creditLimit: 500 });
    const other = await createTestKey(gateway.prisma, account.id);
    const billing = gateway.app.get(BillingService);
    const charge = async (apiKeyId: string, endpoint: 'search' | 'extract' | 'crawl', credits: number, projectExternalId?: string) => {
      const reservation = await billing.reserve({
        accountId: account.id,
        apiKeyId,
        projectExternalId,
        requestId: randomUUID(),
        endpoint,
        maximumCredits: credits,
        minimumCredits: credits,
        holdMilliseconds: 60_000,
      });
      return billing.settle(reservation, [{ kind: endpoint, credits }]);
    };
    await charge(key.id, 'search', 3, 'project-x');
    await charge(key.id, 'extract', 2);
    await charge(other.id, 'crawl', 4, 'project-x');
    return { key, other };
  }

  it('reports the key and the account in the spec shape', async () => {
    const { key } = await givenUsage();
    const answer = await callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey: key.apiKey });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      key: { usage: 5, limit: 500, search_usage: 3, extract_usage: 2, crawl_usage: 0, map_usage: 0, research_usage: 0 },
      account: {
        current_plan: 'Bootstrap',
        plan_usage: 9,
        plan_limit: 15000,
        paygo_usage: 0,
        paygo_limit: 0,
        search_usage: 3,
        extract_usage: 2,
        crawl_usage: 4,
        map_usage: 0,
        research_usage: 0,
      },
    });
  });

  it('X-Project-ID scopes the per-endpoint figures to the project; an unknown project has none', async () => {
    const { key } = await givenUsage();
    const scoped = await callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey: key.apiKey, headers: { 'X-Project-ID': 'project-x' } });
    expect(scoped.body).toMatchObject({ key: { usage: 3, search_usage: 3, extract_usage: 0 }, account: { plan_usage: 9, search_usage: 3, crawl_usage: 4, extract_usage: 0 } });
    const unknown = await callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey: key.apiKey, headers: { 'X-Project-ID': 'nobody' } });
    expect(unknown.body).toMatchObject({ key: { usage: 0 }, account: { plan_usage: 9, search_usage: 0, crawl_usage: 0 } });
  });

  it('answers the same on a base URL joined with a trailing slash (//usage) and on /usage/', async () => {
    const { key } = await givenUsage();
    const plain = await callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey: key.apiKey });
    for (const path of ['//usage', '/usage/', '//usage?x=1']) {
      const answer = await callGateway(gateway.baseUrl, 'GET', path, { apiKey: key.apiKey });
      expect({ path, status: answer.status, body: answer.body }).toEqual({ path, status: 200, body: plain.body });
    }
    expect((await callGateway(gateway.baseUrl, 'POST', '//feedback', { apiKey: key.apiKey, body: { session_id: 's' } })).status).toBe(200);
  });

  it('accepts X-Session-Id, X-Human-Id and X-Project-ID on every account-plane request, and stamps X-Request-Id', async () => {
    const { key } = await givenUsage();
    const headers = { 'X-Session-Id': 'session-42', 'X-Human-Id': 'user@example.com', 'X-Project-ID': 'project-x' };
    const calls: Array<[string, string, unknown]> = [
      ['GET', '/usage', undefined],
      ['POST', '/logs', {}],
      ['POST', '/feedback', { request_id: 'r' }],
      ['GET', '/team/members', undefined],
      ['GET', '/health', undefined],
    ];
    for (const [method, path, body] of calls) {
      const answer = await callGateway(gateway.baseUrl, method, path, { apiKey: key.apiKey, headers, body });
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
      expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('ignores unknown query parameters and headers', async () => {
    const { key } = await givenUsage();
    const answer = await callGateway(gateway.baseUrl, 'GET', '/usage?verbose=true&foo=bar', { apiKey: key.apiKey, headers: { 'X-Unknown': 'x' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveProperty('key.usage', 5);
  });
});
