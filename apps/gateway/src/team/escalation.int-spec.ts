import { addTestMember, callGateway, createTestAccount, createTestKey } from '@sift/testing';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';

interface GeneratedKeysBody {
  keys: string[];
  key_details: Array<{ id: string; key_type: string; key_limit: number | null; member_id: string | null }>;
}

type Role = 'owner' | 'admin' | 'member';

// Issue #16 item 3: every step of the reported escalation (a member key minting an operator key, then demoting an
// admin, promoting itself to owner and deactivating the owner's key), and the neighbouring ones, refused over HTTP.
describe('Privilege escalation inside a team, over HTTP (real Postgres)', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway();
  });

  afterAll(async () => {
    await gateway.close();
  });

  /** An enterprise account with an owner, an admin and two members, each with a key, and the operator's account-level key. */
  async function givenTeam() {
    const account = await createTestAccount(gateway.prisma, { plan: 'enterprise', name: 'escalation' });
    const person = async (role: Role, keyOptions: { environment?: 'dev' | 'prod'; creditLimit?: number } = {}) => {
      const member = await addTestMember(gateway.prisma, account.id, { role });
      const key = await createTestKey(gateway.prisma, account.id, { memberId: member.id, environment: 'prod', ...keyOptions });
      return { ...member, apiKey: key.apiKey, keyId: key.id };
    };
    const owner = await person('owner');
    const admin = await person('admin');
    const member = await person('member');
    const colleague = await person('member');
    const operator = await createTestKey(gateway.prisma, account.id, { environment: 'prod' });
    const call = <Body = Record<string, unknown>>(apiKey: string, method: string, path: string, body?: unknown) =>
      callGateway<Body & { detail?: { error: string } }>(gateway.baseUrl, method, path, { apiKey, body });
    const roles = async () =>
      Object.fromEntries(
        (await call<{ members: Array<{ id: string; role: string }> }>(owner.apiKey, 'GET', '/team/members')).body.members.map((entry) => [entry.id, entry.role]),
      );
    const works = async (apiKey: string) => (await call(apiKey, 'GET', '/usage')).status === 200;
    return { account, owner, admin, member, colleague, operator, call, roles, works, person };
  }

  function expectRefused(answer: { status: number; body: unknown }, message: RegExp) {
    expect(answer).toMatchObject({ status: 403, body: { detail: { error: expect.stringMatching(message) } } });
  }

  it('a member key cannot mint keys, change roles or deactivate anyone else\'s key', async () => {
    const { account, owner, admin, member, colleague, operator, call, roles, works } = await givenTeam();
    const before = await roles();
    const keysBefore = await gateway.prisma.apiKey.count({ where: { accountId: account.id } });

    expectRefused(await call(member.apiKey, 'POST', '/generate-keys', { count: 1, key_type: 'production' }), /^Members cannot create keys/);
    expectRefused(await call(member.apiKey, 'POST', '/generate-keys', { count: 1, key_type: 'development', key_limit: 1, member_id: member.id }), /^Members cannot create keys/);
    expect(await gateway.prisma.apiKey.count({ where: { accountId: account.id } })).toBe(keysBefore);

    expectRefused(await call(member.apiKey, 'PATCH', `/team/members/${admin.id}`, { role: 'member' }), /^Only the owner can change roles/);
    expectRefused(await call(member.apiKey, 'PATCH', `/team/members/${member.id}`, { role: 'owner' }), /^Only the owner can transfer ownership/);
    expectRefused(await call(member.apiKey, 'PATCH', `/team/members/${member.id}`, { role: 'admin' }), /^Only the owner can change roles/);
    expect(await roles()).toEqual(before);

    for (const target of [owner.keyId, admin.keyId, colleague.keyId, operator.id]) {
      expectRefused(await call(member.apiKey, 'POST', '/deactivate-keys', { key_ids: [target] }), /cannot manage the keys|managed by the operator only/);
    }
    // One key out of reach refuses the whole request: the member's own key in the same list stays active too.
    expectRefused(await call(member.apiKey, 'POST', '/deactivate-keys', { api_keys: [member.apiKey, owner.apiKey] }), /cannot manage the keys/);
    expectRefused(await call(member.apiKey, 'GET', `/key-info?key_id=${owner.keyId}`), /cannot manage the keys/);
    for (const apiKey of [owner.apiKey, admin.apiKey, colleague.apiKey, operator.apiKey, member.apiKey]) expect(await works(apiKey)).toBe(true);

    // What a member may do: see the team and its own key, and deactivate it.
    expect((await call(member.apiKey, 'GET', '/team/members')).status).toBe(200);
    expect((await call(member.apiKey, 'GET', '/key-info')).status).toBe(200);
    expect((await call(member.apiKey, 'POST', '/deactivate-keys', { key_ids: [member.keyId] })).status).toBe(200);
    expect(await works(member.apiKey)).toBe(false);
  });

  it('only the owner changes roles: an admin cannot demote the owner, promote anyone or itself, or touch other admins', async () => {
    const { owner, admin, member, call, roles, person } = await givenTeam();
    const otherAdmin = await person('admin');
    const before = await roles();
    expectRefused(await call(admin.apiKey, 'PATCH', `/team/members/${owner.id}`, { role: 'member' }), /^Only the owner can change roles/);
    expectRefused(await call(admin.apiKey, 'PATCH', `/team/members/${member.id}`, { role: 'admin' }), /^Only the owner can change roles/);
    expectRefused(await call(admin.apiKey, 'PATCH', `/team/members/${otherAdmin.id}`, { role: 'member' }), /^Only the owner can change roles/);
    expectRefused(await call(admin.apiKey, 'PATCH', `/team/members/${admin.id}`, { role: 'owner' }), /^Only the owner can transfer ownership/);
    expectRefused(await call(admin.apiKey, 'POST', '/team/members', { email: 'second-admin@example.test', role: 'admin' }), /^An admin cannot grant the admin role/);
    expectRefused(await call(admin.apiKey, 'DELETE', `/team/members/${otherAdmin.id}`), /^An admin cannot remove an admin/);
    expectRefused(await call(admin.apiKey, 'DELETE', `/team/members/${owner.id}`), /^The owner cannot be removed/);
    expect(await roles()).toEqual(before);

    // The owner can, but never on itself: it keeps the role until it transfers ownership.
    expectRefused(await call(owner.apiKey, 'PATCH', `/team/members/${owner.id}`, { role: 'admin' }), /^Nobody can change their own role/);
    expect((await call(owner.apiKey, 'PATCH', `/team/members/${member.id}`, { role: 'admin' })).status).toBe(200);
    expect((await call(owner.apiKey, 'PATCH', `/team/members/${otherAdmin.id}`, { role: 'member' })).status).toBe(200);
    expect(await roles()).toMatchObject({ [owner.id]: 'owner', [member.id]: 'admin', [otherAdmin.id]: 'member' });
    // An admin still invites and removes members.
    const invited = await call<{ id: string }>(admin.apiKey, 'POST', '/team/members', { email: 'new-member@example.test', role: 'member' });
    expect(invited.status).toBe(200);
    expect((await call(admin.apiKey, 'DELETE', `/team/members/${invited.body.id}`)).status).toBe(200);
  });

  it('a key hands on no more than it has: its member, its environment, at most its credit limit', async () => {
    const { admin, member, owner, colleague, call, person } = await givenTeam();
    const limitedAdmin = await person('admin', { environment: 'dev', creditLimit: 50 });

    expectRefused(await call(limitedAdmin.apiKey, 'POST', '/generate-keys', { count: 1, key_type: 'production', key_limit: 10 }), /^A development key can create development keys only/);
    expectRefused(await call(limitedAdmin.apiKey, 'POST', '/generate-keys', { count: 1, key_type: 'development', key_limit: 51 }), /^This key is limited to 50 credits a month/);
    const inherited = await call<GeneratedKeysBody>(limitedAdmin.apiKey, 'POST', '/generate-keys', { count: 1, key_type: 'development' });
    expect(inherited.status).toBe(200);
    expect(inherited.body.key_details[0]).toMatchObject({ key_type: 'development', key_limit: 50, member_id: limitedAdmin.id });
    const lower = await call<GeneratedKeysBody>(limitedAdmin.apiKey, 'POST', '/generate-keys', { count: 1, key_type: 'development', key_limit: 20 });
    expect(lower.body.key_details[0]).toMatchObject({ key_limit: 20, member_id: limitedAdmin.id });

    // The minted key acts as its member, an admin: no role changes.
    expectRefused(await call(inherited.body.keys[0], 'PATCH', `/team/members/${member.id}`, { role: 'admin' }), /^Only the owner can change roles/);

    // Owners and admins create keys for members they outrank; such a key is a member key.
    const forMember = await call<GeneratedKeysBody>(admin.apiKey, 'POST', '/generate-keys', { count: 1, key_type: 'production', member_id: member.id });
    expect(forMember.status).toBe(200);
    expect(forMember.body.key_details[0]).toMatchObject({ member_id: member.id, key_limit: null });
    expectRefused(await call(forMember.body.keys[0], 'POST', '/generate-keys', { count: 1, key_type: 'development' }), /^Members cannot create keys/);
    expectRefused(await call(admin.apiKey, 'POST', '/generate-keys', { count: 1, key_type: 'production', member_id: owner.id }), /^An admin cannot create keys for an owner/);
    expectRefused(await call(admin.apiKey, 'POST', '/generate-keys', { count: 1, key_type: 'production', member_id: limitedAdmin.id }), /^An admin cannot create keys for an admin/);
    const ownerForAdmin = await call<GeneratedKeysBody>(owner.apiKey, 'POST', '/generate-keys', { count: 1, key_type: 'production', member_id: admin.id });
    expect(ownerForAdmin.body.key_details[0]).toMatchObject({ member_id: admin.id });

    // Deactivation follows the same ranks: an admin deactivates a member's key, never the owner's or the operator's.
    expectRefused(await call(admin.apiKey, 'POST', '/deactivate-keys', { key_ids: [owner.keyId] }), /^An admin cannot manage the keys of an owner/);
    expect((await call(admin.apiKey, 'POST', '/deactivate-keys', { key_ids: [colleague.keyId] })).status).toBe(200);
  });

  it("the operator's account-level key acts with the owner's rights and mints operator keys; a member never gets one", async () => {
    const { operator, owner, admin, call } = await givenTeam();
    const minted = await call<GeneratedKeysBody>(operator.apiKey, 'POST', '/generate-keys', { count: 1, key_type: 'production' });
    expect(minted.body.key_details[0]).toMatchObject({ member_id: null });
    expect((await call(operator.apiKey, 'PATCH', `/team/members/${admin.id}`, { role: 'member' })).status).toBe(200);
    // The owner's own keys are member keys: it has no way to mint a key above itself.
    const ownerMinted = await call<GeneratedKeysBody>(owner.apiKey, 'POST', '/generate-keys', { count: 1, key_type: 'production' });
    expect(ownerMinted.body.key_details[0]).toMatchObject({ member_id: owner.id });
    expectRefused(await call(owner.apiKey, 'POST', '/deactivate-keys', { key_ids: [operator.id] }), /managed by the operator only/);
  });

  it("removing a member deactivates the member's keys at once: they never fall back to acting as the operator", async () => {
    const { owner, member, call, works } = await givenTeam();
    expect(await works(member.apiKey)).toBe(true);
    expect((await call(owner.apiKey, 'DELETE', `/team/members/${member.id}`)).status).toBe(200);
    expect(await works(member.apiKey)).toBe(false);
    const stored = await gateway.prisma.apiKey.findUniqueOrThrow({ where: { id: member.keyId } });
    expect(stored).toMatchObject({ status: 'deactivated', memberId: null });
  });
});
