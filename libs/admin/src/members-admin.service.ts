import type { TeamService } from '@sift/auth';
import type { AccountRepository, AccountWithPlan, MemberRecord, MemberRoleName } from '@sift/persistence';
import type { AdminActor } from './admin-actor';
import type { AdminAudit } from './audit/admin-audit';
import { requireAccount } from './account-lookup';

export interface NewMember {
  email: string;
  name?: string | null;
  role: MemberRoleName;
}

/**
 * Team members, for the admin API and the command line alike. The team's rules (one owner, no duplicate e-mail)
 * are @sift/auth's TeamService's, applied with the operator's rights.
 */
export class MembersAdmin {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly team: TeamService,
    private readonly audit: AdminAudit,
  ) {}

  async list(account: string): Promise<{ account: AccountWithPlan; members: MemberRecord[] }> {
    const found = await requireAccount(this.accounts, account);
    return { account: found, members: await this.team.listMembers({ accountId: found.id, operator: true }) };
  }

  add(actor: AdminActor, account: string, member: NewMember): Promise<{ account: AccountWithPlan; member: MemberRecord }> {
    const parameters = { account, email: member.email, name: member.name ?? null, role: member.role };
    return this.audit.perform(actor, { action: 'members.add', parameters }, async (subject) => {
      const found = await requireAccount(this.accounts, account);
      subject.accountId = found.id;
      const added = await this.team.addMember({ accountId: found.id, operator: true }, { email: member.email, name: member.name ?? null, role: member.role });
      return { account: found, member: added };
    });
  }

  /** The previous owner becomes an admin. */
  transferOwnership(actor: AdminActor, account: string, memberId: string): Promise<{ account: AccountWithPlan; ownerId: string }> {
    const parameters = { account, member_id: memberId };
    return this.audit.perform(actor, { action: 'members.transfer-ownership', parameters }, async (subject) => {
      const found = await requireAccount(this.accounts, account);
      subject.accountId = found.id;
      await this.team.transferOwnership({ accountId: found.id, operator: true }, memberId);
      return { account: found, ownerId: memberId };
    });
  }
}
