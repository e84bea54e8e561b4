import { ApiKeyRepository } from '@sift/persistence';
import { callGateway, createTestAccount, createTestKey } from '@sift/testing';
import { startTestGateway, TestGateway, uniqueClientIp } from '../testing/gateway-harness';
import { API_KEY_CACHE_MILLISECONDS } from './caller-authentication.service';

const UNAUTHORIZED = 'Unauthorized: missing or invalid API key.';

describe('CallerGuard over HTTP (real Postgres and Redis)', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    // KEYLESS_REQUESTS_PER_MINUTE is 3 in the harness.
    gateway = await startTestGateway();
  });

  afterAll(async () => {
    await gateway.close();
  });

  async function givenKey(plan = 'startup') {
    const account = await createTestAccount(gateway.prisma, { plan, name: 'guard' });
    return { account, ...(await createTestKey(gateway.prisma, account.id)) };
  }

  describe('401: missing or invalid key', () => {
    it.each([
      ['no Authorization header', {}],
      ['an empty bearer', { Authorization: 'Bearer ' }],
      ['a malformed key', { Authorization: 'Bearer tvly-dev-not-a-key' }],
      ['a well-formed unknown key', { Authorization: `Bearer sift-dev-${'A'.repeat(43)}` }],
      ['a key without the Bearer scheme', { Authorization: `sift-dev-${'A'.repeat(43)}` }],
    ])('GET /usage with %s is 401 in the error shape', async (_case, headers) => {
      const answer = await callGateway(gateway.baseUrl, 'GET', '/usage', { headers });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ detail: { error: UNAUTHORIZED } });
    });

    it('refuses a key at once when it is deactivated through the gateway', async () => {
      const { account, apiKey } = await givenKey('enterprise');
      const other = await createTestKey(gateway.prisma, account.id);
      expect((await callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey: other.apiKey })).status).toBe(200);
      const deactivation = await callGateway(gateway.baseUrl, 'POST', '/deactivate-keys', { apiKey, body: { key_ids: [other.id] } });
      expect(deactivation.status).toBe(200);
      const answer = await callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey: other.apiKey });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ detail: { error: UNAUTHORIZED } });
    });

    it('refuses a key deactivated elsewhere once its cached lookup expires', async () => {
      const { account, apiKey, id } = await givenKey();
      expect((await callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey })).status).toBe(200);
      // As the admin command line does it: straight in the database, unseen by this gateway's cache.
      await gateway.app.get(ApiKeyRepository).deactivate(account.id, id);
      expect((await callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey })).status).toBe(200);
      const now = Date.now();
      const clock = jest.spyOn(Date, 'now').mockReturnValue(now + API_KEY_CACHE_MILLISECONDS + 1);
      try {
        const answer = await callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey });
        expect(answer.status).toBe(401);
        expect(answer.body).toEqual({ detail: { error: UNAUTHORIZED } });
      } finally {
        clock.mockRestore();
      }
    });

    it('is default-deny on every account-plane route', async () => {
      const routes: Array<[string, string]> = [
        ['GET', '/usage'],
        ['POST', '/logs'],
        ['POST', '/feedback'],
        ['POST', '/generate-keys'],
        ['POST', '/deactivate-keys'],
        ['GET', '/key-info'],
        ['GET', '/team/members'],
      ];
      for (const [method, path] of routes) {
        const answer = await callGateway(gateway.baseUrl, method, path, method === 'POST' ? { body: {} } : {});
        expect({ path, status: answer.status, body: answer.body }).toEqual({ path, status: 401, body: { detail: { error: UNAUTHORIZED } } });
      }
    });

    it('leaves /health, /metrics, /docs and /openapi.json public', async () => {
      // No worker runs in this test: the queues have no consumers, which /health reports as "degraded".
      expect((await callGateway(gateway.baseUrl, 'GET', '/health')).body).toMatchObject({ status: 'degraded', postgres: 'ok', redis: 'ok' });
      const metrics = await callGateway<string>(gateway.baseUrl, 'GET', '/metrics');
      expect(metrics.status).toBe(200);
      expect(metrics.body).toContain('sift_http_request_duration_seconds');
      const docs = await callGateway<string>(gateway.baseUrl, 'GET', '/docs');
      expect(docs.status).toBe(200);
      expect(docs.body).toContain('swagger-ui');
      const document = await callGateway(gateway.baseUrl, 'GET', '/openapi.json');
      expect(document.status).toBe(200);
      expect(document.body).toHaveProperty('paths./usage.get');
    });
  });

  it('accepts the key as api_key in the JSON body, as official clients send it', async () => {
    const { apiKey } = await givenKey();
    const answer = await callGateway(gateway.baseUrl, 'POST', '/feedback', { body: { api_key: apiKey, session_id: 'body-key' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true });
  });

  describe('keyless mode', () => {
    // /research joins this list when its route exists (not wired yet); an unknown path answers 404 before any guard.
    it.each(['/crawl', '/map'])('POST %s with the keyless header and no key is 401 "requires an API key"', async (path) => {
      const answer = await callGateway(gateway.baseUrl, 'POST', path, {
        headers: { 'X-Service-Access-Mode': 'keyless', 'X-Forwarded-For': uniqueClientIp() },
        body: { url: 'https://example.com' },
      });
      expect(answer.status).toBe(401);
      expect((answer.body as { detail: { error: string } }).detail.error).toMatch(/requires an API key/);
    });

    it('refuses keyless access to the account plane too', async () => {
      for (const header of ['X-Service-Access-Mode', 'X-Tavily-Access-Mode']) {
        const answer = await callGateway(gateway.baseUrl, 'GET', '/usage', { headers: { [header]: 'keyless' } });
        expect(answer.status).toBe(401);
        expect((answer.body as { detail: { error: string } }).detail.error).toMatch(/requires an API key/);
      }
    });

    it('answers 429 with Retry-After and the keyless envelope once the per-IP budget is used up', async () => {
      const clientIp = uniqueClientIp();
      const keyless = { 'X-Service-Access-Mode': 'keyless', 'X-Forwarded-For': clientIp };
      // An empty body fails validation after the guard has counted the request: no worker is needed.
      for (let request = 0; request < 3; request += 1) {
        expect((await callGateway(gateway.baseUrl, 'POST', '/extract', { headers: keyless, body: {} })).status).toBe(400);
      }
      const refused = await callGateway(gateway.baseUrl, 'POST', '/extract', { headers: keyless, body: {} });
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.body).toEqual({
        error: {
          code: expect.any(String),
          message: expect.stringMatching(/API key/),
          retry_after_seconds: retryAfter,
          // Typed continuation paths, as @tavily/core reads them (`type`), one of them how to use an API key.
          next_actions: expect.arrayContaining([{ type: 'signup', details: expect.stringMatching(/Authorization: Bearer/) }]),
        },
      });
      // The X-Tavily-Access-Mode spelling draws on the same budget.
      const tavilyHeader = await callGateway(gateway.baseUrl, 'POST', '/extract', {
        headers: { 'X-Tavily-Access-Mode': 'keyless', 'X-Forwarded-For': clientIp },
        body: {},
      });
      expect(tavilyHeader.status).toBe(429);
      // Another address has its own budget.
      const elsewhere = await callGateway(gateway.baseUrl, 'POST', '/extract', {
        headers: { 'X-Service-Access-Mode': 'keyless', 'X-Forwarded-For': uniqueClientIp() },
        body: {},
      });
      expect(elsewhere.status).toBe(400);
    });

    it('counts a client behind the trusted proxy by the address the proxy saw, whatever X-Forwarded-For it writes itself', async () => {
      // TRUST_PROXY=1: the proxy (the test) appends the real client address; the client's own entries come before it.
      const seenByProxy = uniqueClientIp();
      const spoofing = () => ({ 'X-Service-Access-Mode': 'keyless', 'X-Forwarded-For': `${uniqueClientIp()}, ${seenByProxy}` });
      for (let request = 0; request < 3; request += 1) {
        expect((await callGateway(gateway.baseUrl, 'POST', '/extract', { headers: spoofing(), body: {} })).status).toBe(400);
      }
      expect((await callGateway(gateway.baseUrl, 'POST', '/extract', { headers: spoofing(), body: {} })).status).toBe(429);
    });

    it('holds a valid key sent with the keyless header to the key, not the exhausted keyless budget', async () => {
      const { apiKey } = await givenKey();
      const keyless = { 'X-Service-Access-Mode': 'keyless', 'X-Forwarded-For': uniqueClientIp() };
      for (let request = 0; request < 4; request += 1) await callGateway(gateway.baseUrl, 'POST', '/extract', { headers: keyless, body: {} });
      expect((await callGateway(gateway.baseUrl, 'POST', '/extract', { headers: keyless, body: {} })).status).toBe(429);
      // Same address, same header, plus a key: validation runs (400), the keyless 429 does not.
      const keyed = await callGateway(gateway.baseUrl, 'POST', '/extract', { headers: keyless, apiKey, body: {} });
      expect(keyed.status).toBe(400);
      expect(keyed.body).toHaveProperty('detail.error');
      // And a key-only route answers normally with the keyless header present.
      expect((await callGateway(gateway.baseUrl, 'GET', '/usage', { headers: keyless, apiKey })).status).toBe(200);
      // An invalid key with the keyless header is a 401, never a silent fall-back to keyless.
      const wrongKey = await callGateway(gateway.baseUrl, 'POST', '/extract', {
        headers: { 'X-Service-Access-Mode': 'keyless', 'X-Forwarded-For': uniqueClientIp() },
        apiKey: `sift-dev-${'B'.repeat(43)}`,
        body: {},
      });
      expect(wrongKey.status).toBe(401);
    });
  });
});
