import { randomBytes, randomUUID } from 'node:crypto';
import { webPageOf } from '@sift/content-extraction';
import { PageRepository } from '@sift/pages';
import { callGateway, ownResults } from '@sift/testing';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';

interface Account {
  id: string;
  name: string;
  plan: string;
  paygo_limit: number | null;
  zero_data_retention: boolean;
}

interface CreatedKey {
  api_key: string;
  key: { id: string; member_id: string | null; environment: string; credit_limit: number | null; status: string; expires_at: string | null };
  account: string;
  member_role: string | null;
}

interface AuditEvent {
  id: string;
  channel: string;
  actor: string;
  action: string;
  parameters: Record<string, unknown>;
  outcome: string;
  error: string | null;
  account_id: string | null;
  request_id: string | null;
}

// Accounts, plans, keys and members through the admin API, and the keys it makes used on the tenant API.
describe('admin API: accounts, keys, members and the audit trail (real gateway)', () => {
  let gateway: TestGateway;
  const adminToken = randomBytes(24).toString('base64url');
  const name = `admin-api-${randomUUID().slice(0, 8)}`;
  const marker = `plimvex${randomUUID().replace(/[^a-f]/g, '').slice(0, 6)}`;
  const url = `https://admin-api-${randomUUID().slice(0, 8)}.test/harbour`;

  const admin = <Body = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    callGateway<Body>(gateway.baseUrl, method, path, { apiKey: adminToken, body });

  async function adminOk<Body>(method: string, path: string, body?: unknown, status = 200): Promise<Body> {
    const answer = await admin<Body>(method, path, body);
    expect({ call: `${method} ${path}`, status: answer.status, body: answer.body }).toMatchObject({ call: `${method} ${path}`, status });
    return answer.body;
  }

  const search = (apiKey: string) => callGateway<{ results: Array<{ url: string }> }>(gateway.baseUrl, 'POST', '/search', { apiKey, body: { query: `${marker} harbour` } });

  beforeAll(async () => {
    gateway = await startTestGateway({ ADMIN_TOKEN: adminToken, QUEUE_PREFIX: `test-${randomBytes(4).toString('hex')}` });
    await new PageRepository(gateway.prisma).save(
      'operator',
      webPageOf({ finalUrl: url, title: `The ${marker} harbour`, text: `Fishing boats shelter in the ${marker} harbour from winter storms.`, language: 'en' }),
      'import',
    );
  });

  afterAll(async () => {
    await gateway?.prisma.document.deleteMany({ where: { url } });
    await gateway?.close();
  });

  it('lists the plan catalogue', async () => {
    const { plans } = await adminOk<{ plans: Array<{ id: string }> }>('GET', '/admin/plans');
    expect(plans.map((plan) => plan.id).sort()).toEqual(['bootstrap', 'enterprise', 'growth', 'paygo', 'project', 'researcher', 'self-hosted', 'startup']);
  });

  it('creates an account, its key and a member key, and both keys search; then changes, deactivates and audits', async () => {
    const account = await adminOk<Account>('POST', '/admin/accounts', { name, plan: 'growth' }, 201);
    expect(account).toMatchObject({ name, plan: 'growth', paygo_limit: null, zero_data_retention: false });
    expect((await admin('POST', '/admin/accounts', { name })).status).toBe(409);
    expect(await admin('POST', '/admin/accounts', { name: `${name}-x`, plan: 'platinum' })).toMatchObject({ status: 400, body: { detail: { error: expect.stringContaining('Unknown plan "platinum"') } } });
    const { accounts } = await adminOk<{ accounts: Account[] }>('GET', '/admin/accounts');
    expect(accounts).toContainEqual(expect.objectContaining({ id: account.id, name }));

    // The account's own key: it authenticates on the tenant API at once and finds what the index holds.
    const key = await adminOk<CreatedKey>('POST', `/admin/accounts/${name}/keys`, { environment: 'prod', credit_limit: 500 }, 201);
    expect(key).toMatchObject({ account: name, member_role: null, key: { environment: 'prod', credit_limit: 500, member_id: null, status: 'active' } });
    expect(key.api_key).toMatch(/^sift-prod-/);
    const found = await search(key.api_key);
    expect(found.status).toBe(200);
    expect(ownResults(found.body.results, new URL(url).hostname).map((result) => result.url)).toEqual([url]);

    // A member, and a key that acts as the member (named by e-mail), by the account's id this time.
    const member = await adminOk<{ id: string; role: string }>('POST', `/admin/accounts/${account.id}/members`, { email: 'dev@example.com' }, 201);
    expect(member).toMatchObject({ role: 'member' });
    expect((await admin('POST', `/admin/accounts/${name}/members`, { email: 'dev@example.com' })).status).toBe(409);
    const memberKey = await adminOk<CreatedKey>('POST', `/admin/accounts/${name}/keys`, { member: 'dev@example.com', ttl_hours: 24 }, 201);
    expect(memberKey).toMatchObject({ member_role: 'member', key: { member_id: member.id, environment: 'dev' } });
    expect(new Date(memberKey.key.expires_at as string).getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    expect((await search(memberKey.api_key)).status).toBe(200);
    expect(await admin('POST', `/admin/accounts/${name}/keys`, { member: 'nobody@example.com' })).toMatchObject({
      status: 404,
      body: { detail: { error: `No member "nobody@example.com" in account "${name}". See: members list` } },
    });
    const { members } = await adminOk<{ members: Array<{ email: string }> }>('GET', `/admin/accounts/${name}/members`);
    expect(members.map((listed) => listed.email)).toEqual(['dev@example.com']);

    // An owner, then ownership passed to the member: the first owner becomes an admin.
    const owner = await adminOk<{ id: string }>('POST', `/admin/accounts/${name}/members`, { email: 'owner@example.com', role: 'owner' }, 201);
    expect((await admin('POST', `/admin/accounts/${name}/members`, { email: 'second@example.com', role: 'owner' })).status).toBe(409);
    expect(await adminOk('POST', `/admin/accounts/${name}/ownership`, { member_id: member.id })).toEqual({ account: name, owner_id: member.id });
    const roles = (await adminOk<{ members: Array<{ id: string; role: string }> }>('GET', `/admin/accounts/${name}/members`)).members;
    expect(Object.fromEntries(roles.map((listed) => [listed.id, listed.role]))).toEqual({ [member.id]: 'owner', [owner.id]: 'admin' });

    // Plan, zero data retention and pay-as-you-go ceiling in one call; then the ceiling off again.
    expect(await adminOk<Account>('PATCH', `/admin/accounts/${name}`, { plan: 'paygo', zero_data_retention: true, paygo_limit: 300 })).toMatchObject({
      plan: 'paygo', zero_data_retention: true, paygo_limit: 300,
    });
    expect(await adminOk<Account>('PATCH', `/admin/accounts/${name}`, { paygo_limit: null })).toMatchObject({ plan: 'paygo', paygo_limit: null });
    expect((await admin('PATCH', `/admin/accounts/${name}`, {})).status).toBe(400);
    expect((await admin('PATCH', `/admin/accounts/nobody-${randomUUID()}`, { plan: 'growth' })).status).toBe(404);

    // Keys listed by prefix and last four, never whole; deactivated by id, and by the key itself: refused at once.
    const { keys } = await adminOk<{ keys: Array<{ id: string; prefix: string; last_four: string }> }>('GET', `/admin/accounts/${name}/keys`);
    expect(keys.map((listed) => listed.id).sort()).toEqual([key.key.id, memberKey.key.id].sort());
    expect(JSON.stringify(keys)).not.toContain(key.api_key);
    expect(await adminOk('POST', `/admin/accounts/${name}/keys/${key.key.id}/deactivate`)).toEqual({ id: key.key.id, status: 'deactivated' });
    expect((await search(key.api_key)).status).toBe(401);
    expect((await admin('POST', `/admin/accounts/${name}/keys/${key.key.id}/deactivate`)).status).toBe(404);
    expect(await adminOk('POST', '/admin/keys/deactivate', { api_key: memberKey.api_key })).toEqual({ id: memberKey.key.id, status: 'deactivated' });
    expect((await search(memberKey.api_key)).status).toBe(401);

    // The audit trail: who (the token's fingerprint, never the token), what, when, and how it ended; no secret in it.
    const { events } = await adminOk<{ events: AuditEvent[] }>('GET', `/admin/audit?account=${encodeURIComponent(name)}`);
    expect(events.map((event) => `${event.action} ${event.outcome}`).reverse()).toEqual([
      'accounts.create succeeded',
      'keys.create succeeded',
      'members.add succeeded',
      'members.add failed',
      'keys.create succeeded',
      'keys.create failed',
      'members.add succeeded',
      'members.add failed',
      'members.transfer-ownership succeeded',
      'accounts.update succeeded',
      'accounts.update succeeded',
      'accounts.update failed',
      'keys.deactivate succeeded',
      'keys.deactivate failed',
      'keys.deactivate succeeded',
    ]);
    for (const event of events) {
      expect(event).toMatchObject({ channel: 'api', actor: expect.stringMatching(/^admin-token:[0-9a-f]{12}$/), account_id: account.id, request_id: expect.any(String) });
    }
    expect(events.find((event) => event.action === 'accounts.update' && event.outcome === 'failed')?.error).toMatch(/Nothing to change/);
    expect(events.filter((event) => event.action === 'keys.create').map((event) => event.parameters)).toContainEqual(
      expect.objectContaining({ account: name, member: 'dev@example.com', ttl_hours: 24 }),
    );
    const everything = JSON.stringify(events);
    for (const secret of [adminToken, key.api_key, memberKey.api_key]) expect(everything).not.toContain(secret);

    // Filters: one family of actions, and paging back from an event.
    const deactivations = (await adminOk<{ events: AuditEvent[] }>('GET', `/admin/audit?account=${name}&action=keys.deactivate`)).events;
    expect(deactivations).toHaveLength(3);
    const older = (await adminOk<{ events: AuditEvent[] }>('GET', `/admin/audit?account=${name}&before=${events[1].id}&limit=2`)).events;
    expect(older.map((event) => event.id)).toEqual([events[2].id, events[3].id]);
    // A failure before the account could be named is still on the trail, without an account.
    const failedCreate = (await adminOk<{ events: AuditEvent[] }>('GET', '/admin/audit?action=accounts.create&limit=50')).events.find(
      (event) => event.parameters.name === `${name}-x`,
    );
    expect(failedCreate).toMatchObject({ outcome: 'failed', account_id: null, error: expect.stringContaining('Unknown plan') });
  });
});
