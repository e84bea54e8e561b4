import type { MemberRecord, MemberRepository, MemberRoleName } from '@sift/persistence';
import { ForbiddenActionError, NotFoundError, TeamConflictError } from './team-errors';

/**
 * Who is acting: a member of the account, or the self-hoster's operator (admin command line), who has the
 * owner's rights and may also create the first owner of an account.
 */
export type TeamActor = { accountId: string; memberId: string } | { accountId: string; operator: true };

export interface NewMember {
  email: string;
  name?: string | null;
  role: MemberRoleName;
}

type ActingRole = MemberRoleName | 'operator';

/**
 * Team rules: owner has full rights; admin manages members and admins but cannot touch the owner or
 * transfer ownership; member may only list. Exactly one owner: ownership moves only by transfer.
 */
export class TeamService {
  constructor(private readonly members: MemberRepository) {}

  async listMembers(actor: TeamActor): Promise<MemberRecord[]> {
    await this.actingRole(actor);
    return this.members.list(actor.accountId);
  }

  async addMember(actor: TeamActor, input: NewMember): Promise<MemberRecord> {
    const role = await this.actingRole(actor);
    this.requireManager(role);
    if (input.role === 'owner') {
      // The only way to add an owner is the operator bootstrapping an account that has none.
      if (role !== 'operator') throw new ForbiddenActionError('Ownership changes only by transfer.');
      if (await this.members.findOwner(actor.accountId)) {
        throw new TeamConflictError('The account already has an owner; transfer ownership instead.');
      }
    }
    if (await this.members.findByEmail(actor.accountId, input.email)) {
      throw new TeamConflictError(`${input.email} is already a member of this account.`);
    }
    return this.members.create(actor.accountId, input);
  }

  async changeRole(actor: TeamActor, memberId: string, newRole: Exclude<MemberRoleName, 'owner'>): Promise<MemberRecord> {
    const role = await this.actingRole(actor);
    this.requireManager(role);
    if ((newRole as MemberRoleName) === 'owner') throw new ForbiddenActionError('Ownership changes only by transfer.');
    const target = await this.requireMember(actor.accountId, memberId);
    if (target.role === 'owner') throw new ForbiddenActionError('The owner keeps the owner role until ownership is transferred.');
    const updated = await this.members.updateRole(actor.accountId, memberId, newRole);
    if (!updated) throw new NotFoundError('Member not found.');
    return updated;
  }

  async removeMember(actor: TeamActor, memberId: string): Promise<void> {
    const role = await this.actingRole(actor);
    this.requireManager(role);
    const target = await this.requireMember(actor.accountId, memberId);
    if (target.role === 'owner') throw new ForbiddenActionError('The owner cannot be removed; transfer ownership first.');
    await this.members.remove(actor.accountId, memberId);
  }

  /** The previous owner becomes an admin in the same transaction, so there is never zero or two owners. */
  async transferOwnership(actor: TeamActor, newOwnerMemberId: string): Promise<void> {
    const role = await this.actingRole(actor);
    if (role !== 'owner' && role !== 'operator') throw new ForbiddenActionError('Only the owner can transfer ownership.');
    const newOwner = await this.requireMember(actor.accountId, newOwnerMemberId);
    const owner = await this.members.findOwner(actor.accountId);
    if (!owner) throw new NotFoundError('The account has no owner to transfer from.');
    if (owner.id === newOwner.id) return;
    await this.members.transferOwnership(actor.accountId, owner.id, newOwner.id);
  }

  private async actingRole(actor: TeamActor): Promise<ActingRole> {
    if ('operator' in actor) return 'operator';
    const member = await this.members.findById(actor.accountId, actor.memberId);
    if (!member) throw new NotFoundError('The acting member does not belong to this account.');
    return member.role;
  }

  private requireManager(role: ActingRole): void {
    if (role === 'member') throw new ForbiddenActionError('Members can only list the team.');
  }

  private async requireMember(accountId: string, memberId: string): Promise<MemberRecord> {
    const member = await this.members.findById(accountId, memberId);
    if (!member) throw new NotFoundError('Member not found.');
    return member;
  }
}
