import { addTestMember, callGateway, createTestAccount, createTestKey } from '@sift/testing';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';

interface MemberBody {
  id: string;
  email: string;
  role: string;
}

interface MembersBody {
  members: MemberBody[];
  detail?: { error: string };
}

describe('Team roles over HTTP (real Postgres)', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway();
  });

  afterAll(async () => {
    await gateway.close();
  });

  /** An account with an owner, an admin and a member, each holding a key of their own. */
  async function givenTeam() {
    const account = await createTestAccount(gateway.prisma, { plan: 'startup', name: 'team' });
    const person = async (role: 'owner' | 'admin' | 'member') => {
      const member = await addTestMember(gateway.prisma, account.id, { role });
      const { apiKey } = await createTestKey(gateway.prisma, account.id, { memberId: member.id });
      return { ...member, apiKey };
    };
    const owner = await person('owner');
    const admin = await person('admin');
    const member = await person('member');
    const operator = await createTestKey(gateway.prisma, account.id);
    const call = (apiKey: string, method: string, path: string, body?: unknown) =>
      callGateway<MembersBody & MemberBody>(gateway.baseUrl, method, `/team/members${path}`, { apiKey, body });
    const roles = async () =>
      Object.fromEntries((await call(owner.apiKey, 'GET', '')).body.members.map((entry) => [entry.id, entry.role]));
    return { account, owner, admin, member, operator, call, roles };
  }

  it('every role lists the team; a member can do nothing else', async () => {
    const { owner, admin, member, call } = await givenTeam();
    for (const actor of [owner, admin, member]) {
      const list = await call(actor.apiKey, 'GET', '');
      expect(list.status).toBe(200);
      expect(list.body.members.map((entry) => entry.role)).toEqual(['owner', 'admin', 'member']);
    }
    const refusals = [
      await call(member.apiKey, 'POST', '', { email: 'new@example.test', role: 'member' }),
      await call(member.apiKey, 'PATCH', `/${admin.id}`, { role: 'member' }),
      await call(member.apiKey, 'DELETE', `/${admin.id}`),
      await call(member.apiKey, 'PATCH', `/${member.id}`, { role: 'owner' }),
    ];
    for (const refusal of refusals) {
      expect(refusal.status).toBe(403);
      expect(refusal.body.detail?.error).toEqual(expect.any(String));
    }
  });

  it('an admin invites and removes members but changes no role and never touches the owner or ownership', async () => {
    const { owner, admin, member, call, roles } = await givenTeam();
    const invited = await call(admin.apiKey, 'POST', '', { email: 'invitee@example.test', role: 'member', name: 'Invitee' });
    expect(invited.status).toBe(200);
    expect(invited.body).toMatchObject({ email: 'invitee@example.test', role: 'member', name: 'Invitee' });
    expect((await call(admin.apiKey, 'DELETE', `/${invited.body.id}`)).status).toBe(200);
    // Granting or changing a role is the owner's (see escalation.int-spec.ts for every refused step).
    expect((await call(admin.apiKey, 'POST', '', { email: 'second-admin@example.test', role: 'admin' })).status).toBe(403);
    expect((await call(admin.apiKey, 'PATCH', `/${member.id}`, { role: 'admin' })).status).toBe(403);
    expect((await call(admin.apiKey, 'PATCH', `/${owner.id}`, { role: 'member' })).status).toBe(403);
    expect((await call(admin.apiKey, 'DELETE', `/${owner.id}`)).status).toBe(403);
    expect((await call(admin.apiKey, 'PATCH', `/${admin.id}`, { role: 'owner' })).status).toBe(403);
    // Owner is not an invitable role at all.
    expect((await call(admin.apiKey, 'POST', '', { email: 'boss@example.test', role: 'owner' })).status).toBe(400);
    expect((await call(owner.apiKey, 'PATCH', `/${member.id}`, { role: 'admin' })).status).toBe(200);
    expect(await roles()).toEqual({ [owner.id]: 'owner', [admin.id]: 'admin', [member.id]: 'admin' });
  });

  it('the owner transfers ownership: one owner at every moment, the previous owner becomes admin', async () => {
    const { owner, member, call, roles } = await givenTeam();
    const transferred = await call(owner.apiKey, 'PATCH', `/${member.id}`, { role: 'owner' });
    expect(transferred.status).toBe(200);
    expect(await roles()).toMatchObject({ [owner.id]: 'admin', [member.id]: 'owner' });
    // The former owner, now admin, cannot take it back.
    expect((await call(owner.apiKey, 'PATCH', `/${owner.id}`, { role: 'owner' })).status).toBe(403);
    expect(Object.values(await roles()).filter((role) => role === 'owner')).toHaveLength(1);
  });

  it('an account-level key acts as the operator with the owner rights', async () => {
    const { operator, admin, call } = await givenTeam();
    expect((await call(operator.apiKey, 'PATCH', `/${admin.id}`, { role: 'member' })).status).toBe(200);
    expect((await call(operator.apiKey, 'POST', '', { email: 'op-invite@example.test', role: 'member' })).status).toBe(200);
  });

  it('409 on a duplicate e-mail, 404 for members of other accounts, 400 for a malformed id', async () => {
    const { owner, admin, call } = await givenTeam();
    const other = await givenTeam();
    expect((await call(owner.apiKey, 'POST', '', { email: admin.email, role: 'member' })).status).toBe(409);
    expect((await call(owner.apiKey, 'DELETE', `/${other.member.id}`)).status).toBe(404);
    expect((await call(owner.apiKey, 'PATCH', `/${other.member.id}`, { role: 'admin' })).status).toBe(404);
    expect((await call(owner.apiKey, 'DELETE', '/not-a-uuid')).status).toBe(400);
    expect((await call(owner.apiKey, 'POST', '', { email: 'not-an-email', role: 'member' })).status).toBe(400);
    expect((await other.roles())[other.member.id]).toBe('member');
  });
});
