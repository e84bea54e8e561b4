import { callGateway, createTestAccount, createTestKey } from '@sift/testing';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';

interface GeneratedKeys {
  keys: Array<{ id: string; api_key: string; name: string; environment: string; credit_limit: number | null; project_id: string | null }>;
  request_id: string;
  response_time: number;
}

describe('Enterprise key management over HTTP (real Postgres)', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway();
  });

  afterAll(async () => {
    await gateway.close();
  });

  async function givenKey(plan: string) {
    const account = await createTestAccount(gateway.prisma, { plan, name: 'keys' });
    // A production key: a key creates keys of its own environment or below (development).
    return createTestKey(gateway.prisma, account.id, { environment: 'prod' });
  }

  it.each(['researcher', 'startup', 'growth', 'paygo'])('403 on every key-management route for the %s plan', async (plan) => {
    const { apiKey, id } = await givenKey(plan);
    const calls: Array<[string, string, unknown]> = [
      ['POST', '/generate-keys', { count: 1, environment: 'dev' }],
      ['POST', '/deactivate-keys', { key_ids: [id] }],
      ['GET', '/key-info', undefined],
    ];
    for (const [method, path, body] of calls) {
      const answer = await callGateway(gateway.baseUrl, method, path, { apiKey, body });
      expect({ path, status: answer.status, body: answer.body }).toEqual({
        path,
        status: 403,
        body: { detail: { error: 'Key management is available on the enterprise plan only.' } },
      });
    }
    // The refused deactivation left the key working.
    expect((await callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey })).status).toBe(200);
  });

  it('enterprise: generated keys work at once, key-info describes them, deactivation revokes them', async () => {
    const { apiKey } = await givenKey('enterprise');
    const generated = await callGateway<GeneratedKeys>(gateway.baseUrl, 'POST', '/generate-keys', {
      apiKey,
      body: { count: 2, environment: 'prod', name: 'ci', credit_limit: 100, project_id: 'project-k', unknown_field: 1 },
    });
    expect(generated.status).toBe(200);
    expect(generated.body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(generated.body.response_time).toBeGreaterThan(0);
    expect(generated.body.keys).toHaveLength(2);
    const [created, sibling] = generated.body.keys;
    expect(created).toMatchObject({ api_key: expect.stringMatching(/^sift-prod-/), environment: 'prod', credit_limit: 100, project_id: 'project-k' });

    const info = await callGateway(gateway.baseUrl, 'GET', `/key-info?key_id=${created.id}`, { apiKey });
    expect(info.body).toMatchObject({ id: created.id, status: 'active', environment: 'prod', credit_limit: 100, usage: 0, project_id: 'project-k' });
    expect(info.body).not.toHaveProperty('api_key');
    const self = await callGateway(gateway.baseUrl, 'GET', '/key-info', { apiKey: created.api_key });
    expect(self.body).toMatchObject({ id: created.id });

    const deactivated = await callGateway(gateway.baseUrl, 'POST', '/deactivate-keys', {
      apiKey,
      body: { api_keys: [created.api_key], key_ids: ['00000000-0000-4000-8000-000000000000'] },
    });
    expect(deactivated.status).toBe(200);
    expect(deactivated.body).toMatchObject({ deactivated: [{ id: created.id }], not_found: ['00000000-0000-4000-8000-000000000000'] });
    expect((await callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey: created.api_key })).status).toBe(401);
    expect((await callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey: sibling.api_key })).status).toBe(200);
    expect((await callGateway(gateway.baseUrl, 'GET', `/key-info?key_id=${created.id}`, { apiKey })).body).toMatchObject({ status: 'deactivated' });
  });

  it("enterprise: another account's keys are not found and stay active", async () => {
    const { apiKey } = await givenKey('enterprise');
    const stranger = await givenKey('enterprise');
    const info = await callGateway(gateway.baseUrl, 'GET', `/key-info?key_id=${stranger.id}`, { apiKey });
    expect(info.status).toBe(404);
    const deactivation = await callGateway(gateway.baseUrl, 'POST', '/deactivate-keys', { apiKey, body: { key_ids: [stranger.id], api_keys: [stranger.apiKey] } });
    expect(deactivation.body).toMatchObject({ deactivated: [], not_found: [`****${stranger.apiKey.slice(-4)}`, stranger.id] });
    expect((await callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey: stranger.apiKey })).status).toBe(200);
  });

  it('enterprise: validation errors are 400', async () => {
    const { apiKey } = await givenKey('enterprise');
    expect((await callGateway(gateway.baseUrl, 'POST', '/deactivate-keys', { apiKey, body: {} })).status).toBe(400);
    const badCount = await callGateway(gateway.baseUrl, 'POST', '/generate-keys', { apiKey, body: { count: 0, environment: 'dev' } });
    expect(badCount.status).toBe(400);
    expect(badCount.body).toEqual({ detail: { error: expect.stringMatching(/^Invalid request: .*count/) } });
  });
});
