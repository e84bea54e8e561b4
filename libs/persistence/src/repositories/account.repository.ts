import type { PrismaClient } from '../generated/prisma/client';
import { isUuid } from './uuid';

export interface PlanRecord {
  id: string;
  name: string;
  /** null = custom/unlimited (enterprise). */
  monthlyCredits: number | null;
  priceUsdCents: number | null;
  paid: boolean;
}

export interface AccountRecord {
  id: string;
  name: string;
  planId: string;
  /** Pay-as-you-go ceiling in credits per month; null = pay-as-you-go off. */
  paygoLimit: number | null;
  zeroDataRetention: boolean;
  createdAt: Date;
}

export interface AccountWithPlan extends AccountRecord {
  plan: PlanRecord;
}

export interface CreateAccountInput {
  name: string;
  planId: string;
  paygoLimit?: number | null;
  zeroDataRetention?: boolean;
}

/** Accounts and the plan catalogue they point at (the plans table is seeded by the first migration). */
export class AccountRepository {
  constructor(private readonly prisma: PrismaClient) {}

  listPlans(): Promise<PlanRecord[]> {
    return this.prisma.plan.findMany({ orderBy: [{ monthlyCredits: { sort: 'asc', nulls: 'last' } }] });
  }

  findPlan(planId: string): Promise<PlanRecord | null> {
    return this.prisma.plan.findUnique({ where: { id: planId } });
  }

  async findById(accountId: string): Promise<AccountWithPlan | null> {
    if (!isUuid(accountId)) return null;
    return this.prisma.account.findUnique({ where: { id: accountId }, include: { plan: true } });
  }

  findByName(name: string): Promise<AccountWithPlan | null> {
    return this.prisma.account.findUnique({ where: { name }, include: { plan: true } });
  }

  /** Operator view across all accounts (admin command line only). */
  listAll(): Promise<AccountWithPlan[]> {
    return this.prisma.account.findMany({ include: { plan: true }, orderBy: { createdAt: 'asc' } });
  }

  create(input: CreateAccountInput): Promise<AccountWithPlan> {
    return this.prisma.account.create({
      data: {
        name: input.name,
        planId: input.planId,
        paygoLimit: input.paygoLimit ?? null,
        zeroDataRetention: input.zeroDataRetention ?? false,
      },
      include: { plan: true },
    });
  }

  updatePlan(accountId: string, planId: string): Promise<AccountWithPlan> {
    return this.prisma.account.update({ where: { id: accountId }, data: { planId }, include: { plan: true } });
  }

  updatePaygoLimit(accountId: string, paygoLimit: number | null): Promise<AccountWithPlan> {
    return this.prisma.account.update({ where: { id: accountId }, data: { paygoLimit }, include: { plan: true } });
  }

  updateZeroDataRetention(accountId: string, enabled: boolean): Promise<AccountWithPlan> {
    return this.prisma.account.update({
      where: { id: accountId },
      data: { zeroDataRetention: enabled },
      include: { plan: true },
    });
  }
}
