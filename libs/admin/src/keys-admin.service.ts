import { KEY_MANAGEMENT_LIMITS } from '@sift/api-contracts';
import { generateApiKey, hashApiKey, type ApiKeyEnvironment } from '@sift/auth';
import type { AccountRepository, AccountWithPlan, ApiKeyRecord, ApiKeyRepository, MemberRecord, MemberRepository } from '@sift/persistence';
import type { AdminActor } from './admin-actor';
import { AdminError } from './admin-error';
import type { AdminAudit } from './audit/admin-audit';
import { requireAccount, requirePlan } from './account-lookup';
import { DEFAULT_PLAN } from './accounts-admin.service';

export interface NewKey {
  /** The account's name (or id). */
  account: string;
  /** Create the account when there is none of that name (the command line's `keys create`); otherwise it must exist. */
  createAccount?: boolean;
  /** Plan of a new account, or the plan to move an existing one to. */
  plan?: string;
  /** The account's monthly pay-as-you-go ceiling, set along with the key. */
  paygoLimit?: number;
  name?: string;
  environment?: ApiKeyEnvironment;
  /** Monthly credit limit of this key; absent = none. */
  creditLimit?: number | null;
  /** The team member (e-mail or id) the key belongs to and acts as; absent = the operator's key, with the owner's rights. */
  member?: string;
  /** The key stops authenticating this many hours from now. */
  ttlHours?: number;
}

export interface CreatedKey {
  /** Shown once, to the caller who made it; only its hash is stored. */
  apiKey: string;
  key: ApiKeyRecord;
  account: AccountWithPlan;
  accountCreated: boolean;
  member: MemberRecord | null;
}

/** How a key to deactivate is named: by its id within an account, or by the key itself. */
export type KeyReference = { account: string; keyId: string } | { apiKey: string };

/** API keys, for the admin API and the command line alike. */
export class KeysAdmin {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly apiKeys: ApiKeyRepository,
    private readonly members: MemberRepository,
    private readonly audit: AdminAudit,
  ) {}

  async list(account: string): Promise<{ account: AccountWithPlan; keys: ApiKeyRecord[] }> {
    const found = await requireAccount(this.accounts, account);
    return { account: found, keys: await this.apiKeys.list(found.id) };
  }

  create(actor: AdminActor, input: NewKey): Promise<CreatedKey> {
    const environment = input.environment ?? 'dev';
    const parameters = {
      account: input.account,
      ...(input.plan !== undefined ? { plan: input.plan } : {}),
      ...(input.paygoLimit !== undefined ? { paygo_limit: input.paygoLimit } : {}),
      name: input.name ?? 'default',
      environment,
      credit_limit: input.creditLimit ?? null,
      member: input.member ?? null,
      ttl_hours: input.ttlHours ?? null,
    };
    return this.audit.perform(actor, { action: 'keys.create', parameters }, async (subject) => {
      const { min, max } = KEY_MANAGEMENT_LIMITS.ttlHours;
      if (input.ttlHours !== undefined && (!Number.isInteger(input.ttlHours) || input.ttlHours < min || input.ttlHours > max)) {
        throw new AdminError(`ttl_hours: expected whole hours from ${min} to ${max}.`);
      }
      if (input.plan) await requirePlan(this.accounts, input.plan);
      let account = input.createAccount ? await this.accounts.findByName(input.account) : await requireAccount(this.accounts, input.account);
      subject.accountId = account?.id;
      // A member key needs the member, so the account must already exist: nothing is created when the member is unknown.
      const member = input.member ? await this.requireMember(account, input.member) : null;
      let accountCreated = false;
      if (!account) {
        account = await this.accounts.create({ name: input.account, planId: input.plan ?? DEFAULT_PLAN, paygoLimit: input.paygoLimit ?? null });
        subject.accountId = account.id;
        accountCreated = true;
      } else {
        if (input.plan && input.plan !== account.planId) account = await this.accounts.updatePlan(account.id, input.plan);
        if (input.paygoLimit !== undefined) account = await this.accounts.updatePaygoLimit(account.id, input.paygoLimit);
      }
      const generated = generateApiKey(environment);
      const key = await this.apiKeys.create(account.id, {
        name: input.name ?? 'default',
        keyHash: generated.keyHash,
        prefix: generated.prefix,
        lastFour: generated.lastFour,
        environment,
        creditLimit: input.creditLimit ?? null,
        memberId: member?.id ?? null,
        expiresAt: input.ttlHours === undefined ? null : new Date(Date.now() + input.ttlHours * 3_600_000),
      });
      return { apiKey: generated.apiKey, key, account, accountCreated, member };
    });
  }

  /** Returns the deactivated key's id and account (the caller may drop it from a key cache). */
  deactivate(actor: AdminActor, reference: KeyReference): Promise<{ keyId: string; accountId: string }> {
    // The key itself is a secret: the audit names it by prefix and last four, as keys list shows it.
    const parameters = 'apiKey' in reference ? { api_key: maskedKey(reference.apiKey) } : { account: reference.account, key_id: reference.keyId };
    return this.audit.perform(actor, { action: 'keys.deactivate', parameters }, async (subject) => {
      let accountId: string;
      let keyId: string;
      if ('apiKey' in reference) {
        const found = await this.apiKeys.findByHash(hashApiKey(reference.apiKey));
        if (!found) throw new AdminError('No such key.', 'not-found');
        accountId = found.accountId;
        keyId = found.id;
      } else {
        accountId = (await requireAccount(this.accounts, reference.account)).id;
        keyId = reference.keyId;
      }
      subject.accountId = accountId;
      if (!(await this.apiKeys.deactivate(accountId, keyId))) throw new AdminError('No active key with that id in this account.', 'not-found');
      return { keyId, accountId };
    });
  }

  private async requireMember(account: AccountWithPlan | null, emailOrId: string): Promise<MemberRecord> {
    if (!account) throw new AdminError('A member key needs an existing account with that member; add the member first (members add).');
    const member = (await this.members.findById(account.id, emailOrId)) ?? (await this.members.findByEmail(account.id, emailOrId));
    if (!member) throw new AdminError(`No member "${emailOrId}" in account "${account.name}". See: members list`, 'not-found');
    return member;
  }
}

/** `sift-prod-Ab…wxyz`: enough to recognise a key in the audit, too little to use it. */
function maskedKey(apiKey: string): string {
  return apiKey.length <= 16 ? '…' : `${apiKey.slice(0, 12)}…${apiKey.slice(-4)}`;
}
