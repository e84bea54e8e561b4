import { ApiKeyRepository } from '@sift/persistence';
import { callGateway, createTestAccount, createTestKey } from '@sift/testing';
import { API_KEY_CACHE_MILLISECONDS } from '../caller/caller-authentication.service';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';

interface GeneratedKeys {
  keys: string[];
  key_details: Array<{ id: string; name: string; key_type: string; key_limit: number | null; project_id: string | null; member_id: string | null }>;
  expires_at: string;
  created: string;
  message: string;
  request_id: string;
  response_time: number;
}

interface KeyInfo {
  id: string;
  name: string;
  key_type: string;
  status: string;
  limit: number | null;
  usage: number;
  created: string;
  created_at: string;
  expires_at: string;
  deactivated_at: string | null;
  project_id: string | null;
}

const HOUR_MS = 3_600_000;
const UNAUTHORIZED = { detail: { error: expect.stringMatching(/API key/i) } };

describe('Enterprise key management with Tavily payloads over HTTP (real Postgres)', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway();
  });

  afterAll(async () => {
    await gateway.close();
  });

  /** A production operator key: a key creates keys of its own type or below (development). */
  async function givenKey(plan = 'enterprise') {
    const account = await createTestAccount(gateway.prisma, { plan, name: 'keys' });
    return { account, ...(await createTestKey(gateway.prisma, account.id, { environment: 'prod' })) };
  }

  async function generate(apiKey: string, body: Record<string, unknown>) {
    const answer = await callGateway<GeneratedKeys>(gateway.baseUrl, 'POST', '/generate-keys', { apiKey, body });
    expect({ status: answer.status, body: answer.body }).toMatchObject({ status: 200 });
    return answer.body;
  }

  function keyInfo(apiKey: string, keyId?: string) {
    return callGateway<KeyInfo>(gateway.baseUrl, 'GET', keyId ? `/key-info?key_id=${keyId}` : '/key-info', { apiKey });
  }

  function usageStatus(apiKey: string) {
    return callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey }).then((answer) => answer.status);
  }

  /** Runs `work` as if the clock read `at` (the gateway reads Date.now() for key expiry and its key cache). */
  async function at<T>(time: number, work: () => Promise<T>): Promise<T> {
    const clock = jest.spyOn(Date, 'now').mockReturnValue(time);
    try {
      return await work();
    } finally {
      clock.mockRestore();
    }
  }

  it.each(['researcher', 'startup', 'growth', 'paygo'])('403 on every key-management route for the %s plan', async (plan) => {
    const { apiKey, id } = await givenKey(plan);
    const calls: Array<[string, string, unknown]> = [
      ['POST', '/generate-keys', { count: 1, key_type: 'development' }],
      ['POST', '/deactivate-keys', { key_ids: [id] }],
      ['POST', '/deactivate-keys', undefined],
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
    // The refused deactivations left the key working.
    expect(await usageStatus(apiKey)).toBe(200);
  });

  it("documents each route's 403 as the body a key below the enterprise plan receives, word for word", async () => {
    const { apiKey } = await givenKey('growth');
    const document = await callGateway<{ paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { example?: unknown }> }> }>> }>(
      gateway.baseUrl,
      'GET',
      '/openapi.json',
    );
    expect(document.status).toBe(200);
    const calls: Array<[string, string, unknown]> = [
      ['POST', '/generate-keys', { count: 1 }],
      ['POST', '/deactivate-keys', undefined],
      ['GET', '/key-info', undefined],
    ];
    for (const [method, path, body] of calls) {
      const documented = document.body.paths[path]?.[method.toLowerCase()]?.responses['403']?.content?.['application/json']?.example;
      const answer = await callGateway(gateway.baseUrl, method, path, { apiKey, body });
      expect({ path, status: answer.status, body: answer.body }).toEqual({ path, status: 403, body: documented });
    }
  });

  it("Tavily's documented request: two development keys named projectA, 200 credits each, expiring after 10 hours", async () => {
    const { apiKey, account } = await givenKey();
    const before = Date.now();
    const body = await generate(apiKey, {
      permission_level: 'user',
      name: 'projectA',
      scope: ['api:generate_keys'],
      key_type: 'development',
      key_limit: 200,
      ttl_hours: 10,
      count: 2,
    });
    expect(body.keys).toHaveLength(2);
    for (const key of body.keys) expect(key).toMatch(/^sift-dev-/);
    expect(new Set(body.keys).size).toBe(2);
    expect(body.message).toBe('2 keys generated successfully with 200 credits each. These keys will be automatically deactivated after 10 hours');
    expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    const expiresAt = Date.parse(body.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 10 * HOUR_MS);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 10 * HOUR_MS);
    expect(Date.parse(body.created)).toBeGreaterThanOrEqual(before - 1000);
    expect(body.key_details).toEqual([
      { id: expect.any(String), name: 'projectA', key_type: 'development', key_limit: 200, project_id: null, member_id: null },
      { id: expect.any(String), name: 'projectA', key_type: 'development', key_limit: 200, project_id: null, member_id: null },
    ]);

    // Each key works, describes itself, and has the development type as stored.
    for (const [index, key] of body.keys.entries()) {
      const info = await keyInfo(key);
      expect(info.status).toBe(200);
      expect(info.body).toEqual({
        id: body.key_details[index].id,
        name: 'projectA',
        prefix: key.slice(0, 'sift-dev-'.length + 4),
        last_four: key.slice(-4),
        key_type: 'development',
        status: 'active',
        limit: 200,
        usage: 0,
        created: expect.any(String),
        created_at: expect.any(String),
        expires_at: body.expires_at,
        deactivated_at: null,
        project_id: null,
        member_id: null,
      });
      expect(info.body.created_at).toBe(info.body.created);
    }
    const stored = await gateway.app.get(ApiKeyRepository).list(account.id);
    expect(stored.filter((key) => key.generationRequestId === body.request_id).map((key) => [key.environment, key.creditLimit])).toEqual([
      ['dev', 200],
      ['dev', 200],
    ]);
  });

  it('count creates that many distinct working keys; without fields: one development key that never expires', async () => {
    const { apiKey } = await givenKey();
    const three = await generate(apiKey, { count: 3 });
    expect(three.keys).toHaveLength(3);
    expect(new Set(three.key_details.map((key) => key.id)).size).toBe(3);
    for (const key of three.keys) expect(await usageStatus(key)).toBe(200);
    expect(three.key_details.map((key) => key.name)).toEqual(['development-never-#1', 'development-never-#2', 'development-never-#3']);
    expect(three.message).toBe('3 keys generated successfully.');

    const single = await generate(apiKey, {});
    expect(single.keys).toHaveLength(1);
    expect(single.keys[0]).toMatch(/^sift-dev-/);
    expect(single.expires_at).toBe('never');
    expect((await keyInfo(single.keys[0])).body).toMatchObject({ key_type: 'development', expires_at: 'never', limit: null, name: 'development-never-#1' });
  });

  it('key_type production makes production keys; a development key cannot make them', async () => {
    const { apiKey } = await givenKey();
    const production = await generate(apiKey, { key_type: 'production', name: 'prod' });
    expect(production.keys[0]).toMatch(/^sift-prod-/);
    expect((await keyInfo(production.keys[0])).body).toMatchObject({ key_type: 'production', name: 'prod' });

    const development = await generate(apiKey, { key_type: 'development' });
    const refused = await callGateway(gateway.baseUrl, 'POST', '/generate-keys', { apiKey: development.keys[0], body: { key_type: 'production' } });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 403,
      body: { detail: { error: 'A development key can create development keys only; send "key_type": "development".' } },
    });
  });

  it("key_limit is the key's credit limit: a 1-credit key makes one search, then gets 432", async () => {
    const { apiKey } = await givenKey();
    const [limited] = (await generate(apiKey, { key_limit: 1 })).keys;
    const search = () => callGateway(gateway.baseUrl, 'POST', '/search', { apiKey: limited, body: { query: 'credit limit probe' } });
    expect((await search()).status).toBe(200);
    const refused = await search();
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 432, body: { detail: { error: expect.stringMatching(/upgrade your plan/i) } } });
    expect((await keyInfo(apiKey, (await keyInfo(limited)).body.id)).body).toMatchObject({ limit: 1, usage: 1 });
  });

  it('ttl_hours: the key works until its expiry and is refused with 401 from then on, key-info reporting it deactivated', async () => {
    const { apiKey } = await givenKey();
    const body = await generate(apiKey, { ttl_hours: 1 });
    const [expiring] = body.keys;
    expect(await usageStatus(expiring)).toBe(200);
    const expiresAt = Date.parse(body.expires_at);
    expect(await at(expiresAt - 1, () => usageStatus(expiring))).toBe(200);
    const refused = await at(expiresAt, () => callGateway(gateway.baseUrl, 'POST', '/search', { apiKey: expiring, body: { query: 'after expiry' } }));
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 401, body: UNAUTHORIZED });
    const info = await at(expiresAt, () => keyInfo(apiKey, body.key_details[0].id));
    expect(info.body).toMatchObject({ status: 'deactivated', expires_at: body.expires_at, deactivated_at: body.expires_at });
  });

  it('an expiring key is not served from the key cache past its expiry', async () => {
    const { apiKey, account } = await givenKey();
    const body = await generate(apiKey, { ttl_hours: 1 });
    // Bring the expiry inside one cache period, as if the key had been made an hour ago.
    const expiresAt = Date.now() + API_KEY_CACHE_MILLISECONDS / 2;
    await gateway.prisma.apiKey.updateMany({ where: { id: body.key_details[0].id, accountId: account.id }, data: { expiresAt: new Date(expiresAt) } });
    expect(await usageStatus(body.keys[0])).toBe(200);
    expect(await at(expiresAt + 1, () => usageStatus(body.keys[0]))).toBe(401);
  });

  it('a key that expires creates keys that expire no later: inherited without ttl_hours, refused beyond', async () => {
    const { apiKey } = await givenKey();
    const parent = await generate(apiKey, { ttl_hours: 2 });
    const inherited = await generate(parent.keys[0], {});
    expect(inherited.expires_at).toBe(parent.expires_at);
    expect(inherited.message).toBe(`1 key generated successfully. This key will be automatically deactivated at ${parent.expires_at}`);
    expect((await generate(parent.keys[0], { ttl_hours: 1 })).expires_at < parent.expires_at).toBe(true);
    const beyond = await callGateway(gateway.baseUrl, 'POST', '/generate-keys', { apiKey: parent.keys[0], body: { ttl_hours: 3 } });
    expect({ status: beyond.status, body: beyond.body }).toEqual({ status: 403, body: { detail: { error: expect.stringMatching(/cannot create keys that outlive it/) } } });
  });

  it("project_id: the keys belong to the project and their usage counts there without X-Project-ID", async () => {
    const { apiKey } = await givenKey();
    const body = await generate(apiKey, { project_id: 'project-k' });
    expect(body.key_details[0].project_id).toBe('project-k');
    const [projectKey] = body.keys;
    expect((await keyInfo(projectKey)).body.project_id).toBe('project-k');
    expect((await callGateway(gateway.baseUrl, 'POST', '/search', { apiKey: projectKey, body: { query: 'project usage' } })).status).toBe(200);
    const inProject = await callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey: projectKey, headers: { 'X-Project-ID': 'project-k' } });
    expect(inProject.body).toMatchObject({ key: { usage: 1 } });
    const elsewhere = await callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey: projectKey, headers: { 'X-Project-ID': 'project-other' } });
    expect(elsewhere.body).toMatchObject({ key: { usage: 0 } });
  });

  it("deactivate-keys by the generation's request_id retires that batch only", async () => {
    const { apiKey } = await givenKey();
    const batch = await generate(apiKey, { count: 2 });
    const other = await generate(apiKey, {});
    const answer = await callGateway(gateway.baseUrl, 'POST', '/deactivate-keys', { apiKey, body: { request_id: batch.request_id } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ message: 'Successfully deactivated 2 key(s)', not_found: [] });
    for (const key of batch.keys) expect(await usageStatus(key)).toBe(401);
    expect(await usageStatus(other.keys[0])).toBe(200);
    const again = await callGateway(gateway.baseUrl, 'POST', '/deactivate-keys', { apiKey, body: { request_id: batch.request_id } });
    expect(again.body).toMatchObject({ message: 'Successfully deactivated 0 key(s)', deactivated: [] });
    const unknown = await callGateway(gateway.baseUrl, 'POST', '/deactivate-keys', { apiKey, body: { request_id: 'no-such-request' } });
    expect(unknown.body).toMatchObject({ deactivated: [], not_found: ['no-such-request'] });
  });

  it('deactivate-keys by key and by id; a key-info of a deactivated key says so', async () => {
    const { apiKey } = await givenKey();
    const generated = await generate(apiKey, { count: 3 });
    const [byKey, byId, sibling] = generated.keys;
    const answer = await callGateway(gateway.baseUrl, 'POST', '/deactivate-keys', {
      apiKey,
      body: { api_keys: [byKey], key_ids: [generated.key_details[1].id, '00000000-0000-4000-8000-000000000000'] },
    });
    expect(answer.body).toMatchObject({
      message: 'Successfully deactivated 2 key(s)',
      deactivated: [{ id: generated.key_details[0].id }, { id: generated.key_details[1].id }],
      not_found: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(await usageStatus(byKey)).toBe(401);
    expect(await usageStatus(byId)).toBe(401);
    expect(await usageStatus(sibling)).toBe(200);
    const info = await keyInfo(apiKey, generated.key_details[0].id);
    expect(info.body).toMatchObject({ status: 'deactivated', deactivated_at: expect.any(String) });
  });

  it.each([undefined, {}])('deactivate-keys with the body %j deactivates the calling key, as in Tavily', async (body) => {
    const { apiKey } = await givenKey();
    const [own, sibling] = (await generate(apiKey, { count: 2 })).keys;
    const answer = await callGateway(gateway.baseUrl, 'POST', '/deactivate-keys', { apiKey: own, body });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ message: 'Successfully deactivated 1 key(s)' });
    expect(await usageStatus(own)).toBe(401);
    expect(await usageStatus(sibling)).toBe(200);
    expect(await usageStatus(apiKey)).toBe(200);
  });

  it("another account's keys are not found and stay active", async () => {
    const { apiKey } = await givenKey();
    const stranger = await givenKey();
    const strangerBatch = await generate(stranger.apiKey, {});
    expect((await keyInfo(apiKey, stranger.id)).status).toBe(404);
    const deactivation = await callGateway(gateway.baseUrl, 'POST', '/deactivate-keys', {
      apiKey,
      body: { key_ids: [stranger.id], api_keys: [stranger.apiKey], request_id: strangerBatch.request_id },
    });
    expect(deactivation.body).toMatchObject({ deactivated: [], not_found: [strangerBatch.request_id, `****${stranger.apiKey.slice(-4)}`, stranger.id] });
    expect(await usageStatus(stranger.apiKey)).toBe(200);
    expect(await usageStatus(strangerBatch.keys[0])).toBe(200);
  });

  it.each([
    [{ count: 0 }, /count must not be less than 1/],
    [{ count: 201 }, /count must not be greater than 200/],
    [{ key_type: 'staging' }, /key_type must be one of the following values: development, production/],
    [{ key_limit: 0 }, /key_limit must not be less than 1/],
    [{ key_limit: 100_001 }, /key_limit must not be greater than 100000/],
    [{ ttl_hours: 0 }, /ttl_hours must not be less than 1/],
    [{ ttl_hours: 8_761 }, /ttl_hours must not be greater than 8760/],
    [{ ttl_hours: 1.5 }, /ttl_hours must be an integer/],
    // null is not "left out": every optional field refuses it.
    [{ ttl_hours: null }, /ttl_hours must be an integer/],
    [{ key_limit: null }, /key_limit must be an integer/],
    [{ name: null }, /name must be a string/],
    [{ project_id: null }, /project_id must be a string/],
    [{ member_id: null }, /member_id must be a UUID/],
  ])('400 with detail.error for %j, and no key is created', async (body, message) => {
    const { apiKey, account } = await givenKey();
    const answer = await callGateway(gateway.baseUrl, 'POST', '/generate-keys', { apiKey, body });
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: { detail: { error: expect.stringMatching(message) } } });
    expect(await gateway.prisma.apiKey.count({ where: { accountId: account.id } })).toBe(1);
  });

  it.each([
    [{ api_keys: 'sift-prod-x' }, /api_keys must be an array/],
    [{ key_ids: [] }, /^Name the keys to deactivate/],
    [{ api_keys: [], key_ids: [] }, /^Name the keys to deactivate/],
  ])('400 for the deactivation %j, and the calling key keeps working', async (body, message) => {
    const { apiKey } = await givenKey();
    const answer = await callGateway(gateway.baseUrl, 'POST', '/deactivate-keys', { apiKey, body });
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: { detail: { error: expect.stringMatching(message) } } });
    expect(await usageStatus(apiKey)).toBe(200);
  });

  it.each([
    [{ request_id: null }, /request_id must be a string/],
    [{ request_id: null, key_ids: [] }, /request_id must be a string/],
    [{ api_keys: null }, /api_keys must be an array/],
    [{ key_ids: null }, /key_ids must be an array/],
  ])("400 for the deactivation %j, and no key is deactivated: not the operator's, nor any other made outside generate-keys", async (body, message) => {
    const { apiKey, account } = await givenKey();
    const { apiKey: otherOperatorKey } = await createTestKey(gateway.prisma, account.id, { environment: 'prod' });
    const generated = await generate(apiKey, { count: 2 });
    const answer = await callGateway(gateway.baseUrl, 'POST', '/deactivate-keys', { apiKey, body });
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: { detail: { error: expect.stringMatching(message) } } });
    expect(await gateway.prisma.apiKey.count({ where: { accountId: account.id, status: 'deactivated' } })).toBe(0);
    for (const key of [apiKey, otherOperatorKey, ...generated.keys]) expect(await usageStatus(key)).toBe(200);
  });

  it('finds no key for a generation request id that is not one, even asked directly (never generation_request_id IS NULL)', async () => {
    const { account } = await givenKey();
    const keys = gateway.app.get(ApiKeyRepository);
    for (const notAnId of [null, undefined, '', 'null']) {
      expect(await keys.listByGenerationRequest(account.id, notAnId as unknown as string)).toEqual([]);
    }
  });
});
