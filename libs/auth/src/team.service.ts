import type { MemberRecord, MemberRepository, MemberRoleName } from '@sift/persistence';
import { ForbiddenActionError, NotFoundError, TeamConflictError } from './team-errors';

/**
 * Who is acting: a member of the account, or the self-hoster's operator (admin command line, or an account-level
 * key the operator made without --member), who has the owner's rights and may also create the first owner.
 */
export type TeamActor = { accountId: string; memberId: string } | { accountId: string; operator: true };

export interface NewMember {
  email: string;
  name?: string | null;
  role: MemberRoleName;
}

type ActingRole = MemberRoleName | 'operator';

/** The calling key, as far as handing on rights goes. */
export interface IssuingKey {
  /** null: an account-level key of the operator. */
  memberId: string | null;
  environment: string;
  creditLimit: number | null;
  /** null: the calling key never expires. */
  expiresAt: Date | null;
}

export interface KeyRequest {
  /** The member the new keys are for; absent: the calling key's member. */
  memberId?: string;
  environment: string;
  /** absent: the calling key's own limit (none for an unlimited key). */
  creditLimit?: number;
  /** absent: the calling key's own expiry (none for a key that never expires). */
  expiresAt?: Date;
}

/** What the new keys get: their holder (null: the operator), their monthly credit limit and their expiry. */
export interface KeyGrant {
  memberId: string | null;
  creditLimit: number | null;
  expiresAt: Date | null;
}

/**
 * Ranks for "may act on": the operator above the owner above admins above members. An actor acts on a member or a
 * key only when it outranks the member (or the key's holder), or when it is its own key.
 */
const RANK: Record<ActingRole, number> = { member: 1, admin: 2, owner: 3, operator: 4 };

/**
 * Team rules (spec: owner full settings and billing; admin settings except ownership and billing; member views the
 * members only). Only the owner (or the operator) changes roles; nobody changes their own; an admin invites and
 * removes members, never admins or the owner. Exactly one owner: ownership moves only by transfer. Keys belong to
 * a member and carry that member's role; a key hands on no more than it has.
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
    } else if (RANK[role] <= RANK[input.role]) {
      throw new ForbiddenActionError(`${capitalised(withArticle(role))} cannot grant the ${input.role} role; only the owner can.`);
    }
    if (await this.members.findByEmail(actor.accountId, input.email)) {
      throw new TeamConflictError(`${input.email} is already a member of this account.`);
    }
    return this.members.create(actor.accountId, input);
  }

  async changeRole(actor: TeamActor, memberId: string, newRole: Exclude<MemberRoleName, 'owner'>): Promise<MemberRecord> {
    const role = await this.actingRole(actor);
    if (role !== 'owner' && role !== 'operator') throw new ForbiddenActionError('Only the owner can change roles.');
    if ((newRole as MemberRoleName) === 'owner') throw new ForbiddenActionError('Ownership changes only by transfer.');
    if ('memberId' in actor && actor.memberId === memberId) throw new ForbiddenActionError('Nobody can change their own role.');
    const target = await this.requireMember(actor.accountId, memberId);
    if (target.role === 'owner') throw new ForbiddenActionError('The owner keeps the owner role until ownership is transferred.');
    const updated = await this.members.updateRole(actor.accountId, memberId, newRole);
    if (!updated) throw new NotFoundError('Member not found.');
    return updated;
  }

  /** Removing a member also deactivates the member's keys (in the repository, in one transaction). */
  async removeMember(actor: TeamActor, memberId: string): Promise<void> {
    const role = await this.actingRole(actor);
    this.requireManager(role);
    const target = await this.requireMember(actor.accountId, memberId);
    if (target.role === 'owner') throw new ForbiddenActionError('The owner cannot be removed; transfer ownership first.');
    if (RANK[role] <= RANK[target.role]) throw new ForbiddenActionError(`${capitalised(withArticle(role))} cannot remove ${withArticle(target.role)}; only the owner can.`);
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

  /**
   * Who the new keys belong to and what limit they carry. Owners and admins create keys (members cannot: key
   * management is a setting), for themselves or for a member they outrank; the operator for anyone, and without a
   * member for itself. A key never hands on more than it has: a development key creates development keys only, and
   * a key with a monthly credit limit creates keys with at most that limit (its own limit, not what is left of it,
   * so a key made early in the month is not capped by that month's spending); absent a limit, the new keys get
   * the calling key's. Likewise a key that expires creates keys that expire no later than it does, so a short-lived
   * key cannot mint itself a permanent successor.
   */
  async authorizeNewKeys(actor: TeamActor, issuing: IssuingKey, request: KeyRequest): Promise<KeyGrant> {
    const role = await this.actingRole(actor);
    if (role === 'member') throw new ForbiddenActionError('Members cannot create keys; ask an owner or admin.');
    let holder = issuing.memberId;
    if (request.memberId !== undefined && request.memberId !== issuing.memberId) {
      const target = await this.requireMember(actor.accountId, request.memberId);
      if (RANK[role] <= RANK[target.role]) throw new ForbiddenActionError(`${capitalised(withArticle(role))} cannot create keys for ${withArticle(target.role)}.`);
      holder = target.id;
    }
    if (issuing.environment !== 'prod' && request.environment === 'prod') {
      throw new ForbiddenActionError('A development key can create development keys only; send "key_type": "development".');
    }
    return { memberId: holder, creditLimit: grantedCreditLimit(issuing, request), expiresAt: grantedExpiry(issuing, request) };
  }

  /**
   * Whether the actor may see or deactivate keys held by these holders (null: an operator's account-level key):
   * its own member's keys always, others' only when it outranks their holder. Refuses the whole set if one is out
   * of reach, so a refused request changes nothing.
   */
  async authorizeKeyAccess(actor: TeamActor, holders: Array<string | null>): Promise<void> {
    const role = await this.actingRole(actor);
    if (role === 'operator') return;
    const own = 'memberId' in actor ? actor.memberId : null;
    const roles = new Map((await this.members.list(actor.accountId)).map((member) => [member.id, member.role]));
    for (const holder of holders) {
      if (holder !== null && holder === own) continue;
      const holderRole: ActingRole = holder === null ? 'operator' : (roles.get(holder) ?? 'operator');
      if (RANK[role] <= RANK[holderRole]) {
        throw new ForbiddenActionError(
          holder === null ? "The operator's account-level keys are managed by the operator only." : `${capitalised(withArticle(role))} cannot manage the keys of ${withArticle(holderRole)}.`,
        );
      }
    }
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

function withArticle(role: ActingRole): string {
  return role === 'member' ? 'a member' : `an ${role}`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function grantedCreditLimit(issuing: IssuingKey, request: KeyRequest): number | null {
  if (issuing.creditLimit === null) return request.creditLimit ?? null;
  if (request.creditLimit !== undefined && request.creditLimit > issuing.creditLimit) {
    throw new ForbiddenActionError(`This key is limited to ${issuing.creditLimit} credits a month; it cannot create keys with a higher limit.`);
  }
  return request.creditLimit ?? issuing.creditLimit;
}

function grantedExpiry(issuing: IssuingKey, request: KeyRequest): Date | null {
  if (issuing.expiresAt === null) return request.expiresAt ?? null;
  if (request.expiresAt !== undefined && request.expiresAt > issuing.expiresAt) {
    throw new ForbiddenActionError(`This key expires at ${issuing.expiresAt.toISOString()}; it cannot create keys that outlive it.`);
  }
  return request.expiresAt ?? issuing.expiresAt;
}
