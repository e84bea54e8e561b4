import { randomUUID } from 'node:crypto';
import { AccountRepository, MemberRepository, createPrismaClient, type PrismaClient } from '@sift/persistence';
import { ForbiddenActionError, NotFoundError, TeamConflictError } from './team-errors';
import { TeamService, type TeamActor } from './team.service';

describe('TeamService role rules (real Postgres)', () => {
  let prisma: PrismaClient;
  let accounts: AccountRepository;
  let members: MemberRepository;
  let team: TeamService;

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    accounts = new AccountRepository(prisma);
    members = new MemberRepository(prisma);
    team = new TeamService(members);
  });

  afterAll(async () => {
    await prisma.$disconnect();
  });

  async function givenTeam() {
    const account = await accounts.create({ name: `team-${randomUUID()}`, planId: 'startup' });
    const operator: TeamActor = { accountId: account.id, operator: true };
    const owner = await team.addMember(operator, { email: 'owner@example.com', role: 'owner' });
    const admin = await team.addMember(operator, { email: 'admin@example.com', role: 'admin' });
    const member = await team.addMember(operator, { email: 'member@example.com', role: 'member' });
    const as = (memberId: string): TeamActor => ({ accountId: account.id, memberId });
    return { account, operator, owner, admin, member, as };
  }

  it('lets every role list the team, and members do nothing else', async () => {
    const { owner, admin, member, as } = await givenTeam();
    expect((await team.listMembers(as(member.id))).map((m) => m.role)).toEqual(['owner', 'admin', 'member']);
    await expect(team.addMember(as(member.id), { email: 'x@example.com', role: 'member' })).rejects.toBeInstanceOf(ForbiddenActionError);
    await expect(team.changeRole(as(member.id), admin.id, 'member')).rejects.toBeInstanceOf(ForbiddenActionError);
    await expect(team.removeMember(as(member.id), admin.id)).rejects.toBeInstanceOf(ForbiddenActionError);
    await expect(team.transferOwnership(as(member.id), member.id)).rejects.toBeInstanceOf(ForbiddenActionError);
    expect((await team.listMembers(as(owner.id))).length).toBe(3);
  });

  it('lets an admin invite and remove members but change no role, and not touch the owner or ownership', async () => {
    const { owner, admin, member, as } = await givenTeam();
    const added = await team.addMember(as(admin.id), { email: 'new@example.com', role: 'member' });
    await team.removeMember(as(admin.id), added.id);
    await expect(team.addMember(as(admin.id), { email: 'second-admin@example.com', role: 'admin' })).rejects.toBeInstanceOf(ForbiddenActionError);
    await expect(team.changeRole(as(admin.id), member.id, 'admin')).rejects.toBeInstanceOf(ForbiddenActionError);
    await expect(team.changeRole(as(owner.id), owner.id, 'admin')).rejects.toBeInstanceOf(ForbiddenActionError);
    expect((await team.changeRole(as(owner.id), member.id, 'admin')).role).toBe('admin');
    // member is an admin now: an admin removes members only.
    await expect(team.removeMember(as(admin.id), member.id)).rejects.toBeInstanceOf(ForbiddenActionError);
    await expect(team.changeRole(as(admin.id), owner.id, 'member')).rejects.toBeInstanceOf(ForbiddenActionError);
    await expect(team.removeMember(as(admin.id), owner.id)).rejects.toBeInstanceOf(ForbiddenActionError);
    await expect(team.addMember(as(admin.id), { email: 'boss@example.com', role: 'owner' })).rejects.toBeInstanceOf(ForbiddenActionError);
    await expect(team.transferOwnership(as(admin.id), admin.id)).rejects.toBeInstanceOf(ForbiddenActionError);
    expect((await members.findOwner(owner.accountId))?.id).toBe(owner.id);
  });

  it('keeps exactly one owner: transfer demotes the previous owner to admin', async () => {
    const { account, operator, owner, member, as } = await givenTeam();
    await expect(team.addMember(operator, { email: 'second@example.com', role: 'owner' })).rejects.toBeInstanceOf(TeamConflictError);
    await team.transferOwnership(as(owner.id), member.id);
    const roles = Object.fromEntries((await team.listMembers(as(member.id))).map((m) => [m.email, m.role]));
    expect(roles).toEqual({ 'owner@example.com': 'admin', 'admin@example.com': 'admin', 'member@example.com': 'owner' });
    await expect(team.transferOwnership(as(owner.id), owner.id)).rejects.toBeInstanceOf(ForbiddenActionError);
    expect(await prisma.member.count({ where: { accountId: account.id, role: 'owner' } })).toBe(1);
  });

  it('rolls a failed transfer back whole: the owner stays owner', async () => {
    const { owner, as } = await givenTeam();
    const stranger = await givenTeam();
    await expect(team.transferOwnership(as(owner.id), stranger.member.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(members.transferOwnership(owner.accountId, owner.id, stranger.member.id)).rejects.toThrow();
    expect((await members.findOwner(owner.accountId))?.id).toBe(owner.id);
  });

  it('refuses duplicate e-mails and members of other accounts', async () => {
    const { owner, as } = await givenTeam();
    const other = await givenTeam();
    await expect(team.addMember(as(owner.id), { email: 'admin@example.com', role: 'member' })).rejects.toBeInstanceOf(TeamConflictError);
    await expect(team.removeMember(as(owner.id), other.member.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(team.listMembers({ accountId: owner.accountId, memberId: other.owner.id })).rejects.toBeInstanceOf(NotFoundError);
  });
});
