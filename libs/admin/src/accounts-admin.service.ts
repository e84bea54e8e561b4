import type { AccountRepository, AccountWithPlan, PlanRecord } from '@sift/persistence';
import type { AdminActor } from './admin-actor';
import { AdminError } from './admin-error';
import type { AdminAudit } from './audit/admin-audit';
import { requireAccount, requirePlan } from './account-lookup';

/** The operator's own accounts are not capped: hosted plans (researcher, growth, …) are for operators who resell. */
export const DEFAULT_PLAN = 'self-hosted';

export interface NewAccount {
  name: string;
  plan?: string;
  /** Monthly pay-as-you-go ceiling in credits; null or absent = off. */
  paygoLimit?: number | null;
  zeroDataRetention?: boolean;
}

/** Each field present is changed; absent fields are left as they are. paygoLimit null turns pay-as-you-go off. */
export interface AccountChanges {
  plan?: string;
  zeroDataRetention?: boolean;
  paygoLimit?: number | null;
}

/** Accounts and the plan catalogue, for the admin API and the command line alike. */
export class AccountsAdmin {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly audit: AdminAudit,
  ) {}

  listPlans(): Promise<PlanRecord[]> {
    return this.accounts.listPlans();
  }

  listAccounts(): Promise<AccountWithPlan[]> {
    return this.accounts.listAll();
  }

  find(reference: string): Promise<AccountWithPlan> {
    return requireAccount(this.accounts, reference);
  }

  create(actor: AdminActor, input: NewAccount): Promise<AccountWithPlan> {
    const parameters = { name: input.name, plan: input.plan ?? DEFAULT_PLAN, paygo_limit: input.paygoLimit ?? null, zero_data_retention: input.zeroDataRetention ?? false };
    return this.audit.perform(actor, { action: 'accounts.create', parameters }, async (subject) => {
      const name = input.name.trim();
      if (name === '') throw new AdminError('An account needs a name.');
      if (input.plan) await requirePlan(this.accounts, input.plan);
      if (await this.accounts.findByName(name)) throw new AdminError(`An account named "${name}" exists already.`, 'conflict');
      const account = await this.accounts.create({ name, planId: input.plan ?? DEFAULT_PLAN, paygoLimit: input.paygoLimit ?? null, zeroDataRetention: input.zeroDataRetention ?? false });
      subject.accountId = account.id;
      return account;
    });
  }

  async update(actor: AdminActor, reference: string, changes: AccountChanges): Promise<AccountWithPlan> {
    const parameters = { account: reference, ...snakeCaseChanges(changes) };
    return this.audit.perform(actor, { action: 'accounts.update', parameters }, async (subject) => {
      let account = await requireAccount(this.accounts, reference);
      subject.accountId = account.id;
      if (changes.plan === undefined && changes.zeroDataRetention === undefined && changes.paygoLimit === undefined) {
        throw new AdminError('Nothing to change: give plan, zero_data_retention or paygo_limit.');
      }
      if (changes.plan !== undefined) await requirePlan(this.accounts, changes.plan);
      if (changes.plan !== undefined && changes.plan !== account.planId) account = await this.accounts.updatePlan(account.id, changes.plan);
      if (changes.zeroDataRetention !== undefined) account = await this.accounts.updateZeroDataRetention(account.id, changes.zeroDataRetention);
      if (changes.paygoLimit !== undefined) account = await this.accounts.updatePaygoLimit(account.id, changes.paygoLimit);
      return account;
    });
  }
}

function snakeCaseChanges(changes: AccountChanges): Record<string, unknown> {
  return {
    ...(changes.plan !== undefined ? { plan: changes.plan } : {}),
    ...(changes.zeroDataRetention !== undefined ? { zero_data_retention: changes.zeroDataRetention } : {}),
    ...(changes.paygoLimit !== undefined ? { paygo_limit: changes.paygoLimit } : {}),
  };
}
