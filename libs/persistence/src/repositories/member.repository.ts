import type { PrismaClient } from '../generated/prisma/client';
import { isUuid } from './uuid';

export type MemberRoleName = 'owner' | 'admin' | 'member';

export interface MemberRecord {
  id: string;
  accountId: string;
  email: string;
  name: string | null;
  role: MemberRoleName;
  createdAt: Date;
}

export interface CreateMemberInput {
  email: string;
  name?: string | null;
  role: MemberRoleName;
}

/** Team members of one account. Every query is scoped by accountId. */
export class MemberRepository {
  constructor(private readonly prisma: PrismaClient) {}

  list(accountId: string): Promise<MemberRecord[]> {
    return this.prisma.member.findMany({ where: { accountId }, orderBy: { createdAt: 'asc' } });
  }

  async findById(accountId: string, memberId: string): Promise<MemberRecord | null> {
    if (!isUuid(accountId) || !isUuid(memberId)) return null;
    return this.prisma.member.findFirst({ where: { id: memberId, accountId } });
  }

  findByEmail(accountId: string, email: string): Promise<MemberRecord | null> {
    return this.prisma.member.findUnique({ where: { accountId_email: { accountId, email } } });
  }

  findOwner(accountId: string): Promise<MemberRecord | null> {
    return this.prisma.member.findFirst({ where: { accountId, role: 'owner' } });
  }

  create(accountId: string, input: CreateMemberInput): Promise<MemberRecord> {
    return this.prisma.member.create({
      data: { accountId, email: input.email, name: input.name ?? null, role: input.role },
    });
  }

  async updateRole(accountId: string, memberId: string, role: MemberRoleName): Promise<MemberRecord | null> {
    if (!isUuid(accountId) || !isUuid(memberId)) return null;
    const updated = await this.prisma.member.updateMany({ where: { id: memberId, accountId }, data: { role } });
    return updated.count === 0 ? null : this.findById(accountId, memberId);
  }

  /**
   * Deletes the member and deactivates the member's keys in one transaction. The keys must go first: api_keys'
   * member_id is SET NULL on delete, and a key without a member is an operator's account-level key, so a removed
   * member's key left active would act as the operator.
   */
  async remove(accountId: string, memberId: string): Promise<boolean> {
    if (!isUuid(accountId) || !isUuid(memberId)) return false;
    return this.prisma.$transaction(async (transaction) => {
      await transaction.apiKey.updateMany({
        where: { accountId, memberId, status: 'active' },
        data: { status: 'deactivated', deactivatedAt: new Date() },
      });
      const removed = await transaction.member.deleteMany({ where: { id: memberId, accountId } });
      return removed.count > 0;
    });
  }

  /**
   * Demotes the current owner to admin and promotes the new one in a single transaction. The demotion runs
   * first because the partial unique index allows only one owner row per account at any moment.
   */
  async transferOwnership(accountId: string, fromMemberId: string, toMemberId: string): Promise<void> {
    await this.prisma.$transaction(async (transaction) => {
      const demoted = await transaction.member.updateMany({
        where: { id: fromMemberId, accountId, role: 'owner' },
        data: { role: 'admin' },
      });
      if (demoted.count !== 1) throw new Error('The previous owner is no longer the owner of this account.');
      const promoted = await transaction.member.updateMany({
        where: { id: toMemberId, accountId },
        data: { role: 'owner' },
      });
      if (promoted.count !== 1) throw new Error('The new owner is not a member of this account.');
    });
  }
}
