import {
  isUniqueViolation,
  type AccountRepository,
  type ApiKeyRepository,
  type CreditLedgerRepository,
  type EndpointUsage,
  type LedgerEntryRecord,
  type LockedLedgerSession,
  type ProjectRepository,
} from '@sift/persistence';
import { BillingSubjectNotFoundError } from './billing-errors';
import type { BilledEndpoint, BillingMeterName } from './credit-costs';
import { allocateCredits, PAYGO_PLAN_ID, type Allocation } from './credit-allocation';
import type { UsageReport } from './usage-report';
import { startOfUtcMonth } from './utc-month';

export interface ChargeInput {
  accountId: string;
  apiKeyId: string | null;
  /** X-Project-ID: the usage is attributed to this project of the account (created on first use). */
  projectExternalId?: string | null;
  /** With `kind`, the idempotency key: a retried job charging the same (requestId, kind) is charged once. */
  requestId: string;
  kind: string;
  endpoint: BilledEndpoint;
  credits: number;
}

export interface MeteredChargeInput extends Omit<ChargeInput, 'credits'> {
  meter: BillingMeterName;
  /** Successful units of this request (URLs extracted, pages mapped); failures are never counted. */
  units: number;
  unitsPerBlock: number;
  creditsPerBlock: number;
}

export interface ChargeResult {
  charged: number;
  planCredits: number;
  paygoCredits: number;
  /** True when this (requestId, kind) had been charged before and the first result is returned. */
  replayed: boolean;
}

export interface SpendCheck {
  accountId: string;
  apiKeyId: string | null;
  credits: number;
}

export interface BillingServiceDependencies {
  ledger: CreditLedgerRepository;
  accounts: AccountRepository;
  apiKeys: ApiKeyRepository;
  projects: ProjectRepository;
  now?: () => Date;
}

export class BillingService {
  private readonly now: () => Date;

  constructor(private readonly dependencies: BillingServiceDependencies) {
    this.now = dependencies.now ?? (() => new Date());
  }

  /** Charges `credits` through the ledger, or throws CreditLimitError (432) / PaygoLimitError (433). */
  charge(input: ChargeInput): Promise<ChargeResult> {
    assertWholeCredits(input.credits, 'credits');
    return this.idempotent(input, async (session) => {
      const allocation = await this.allocate(session, input.apiKeyId, input.credits);
      await this.record(session, input, allocation);
      return { charged: input.credits, ...allocation, replayed: false };
    });
  }

  /**
   * Charges whole blocks of a fractional rate (e.g. 1 credit per 5 successful extractions). The remainder is
   * carried in the account's meter, updated in the same transaction as the ledger row, so the fifth success
   * of the month charges even when it arrives in another request.
   */
  chargeMetered(input: MeteredChargeInput): Promise<ChargeResult> {
    assertWholeCredits(input.units, 'units');
    assertWholeCredits(input.creditsPerBlock, 'creditsPerBlock');
    if (!Number.isInteger(input.unitsPerBlock) || input.unitsPerBlock < 1) {
      throw new RangeError('unitsPerBlock must be a positive integer.');
    }
    return this.idempotent(input, async (session) => {
      const total = (await session.readMeter(input.meter)) + input.units;
      const credits = Math.floor(total / input.unitsPerBlock) * input.creditsPerBlock;
      const allocation = await this.allocate(session, input.apiKeyId, credits);
      await session.writeMeter(input.meter, total % input.unitsPerBlock);
      // A row is written even for 0 credits: it is the marker that makes a retry of this request a no-op.
      await this.record(session, input, allocation);
      return { charged: credits, ...allocation, replayed: false };
    });
  }

  /** Pre-check before doing the work; the authoritative check is the locked one inside charge(). */
  async assertCanSpend(check: SpendCheck): Promise<void> {
    assertWholeCredits(check.credits, 'credits');
    const { accounts, apiKeys, ledger } = this.dependencies;
    const since = startOfUtcMonth(this.now());
    const account = await accounts.findById(check.accountId);
    if (!account) throw new BillingSubjectNotFoundError(`Account ${check.accountId} does not exist.`);
    let keyLimit: number | null = null;
    let keyUsed = 0;
    if (check.apiKeyId) {
      const key = await apiKeys.findById(check.accountId, check.apiKeyId);
      if (!key) throw new BillingSubjectNotFoundError(`API key ${check.apiKeyId} is not a key of this account.`);
      keyLimit = key.creditLimit;
      if (keyLimit !== null) keyUsed = await ledger.keyTotalSince(check.accountId, check.apiKeyId, since);
    }
    const totals = await ledger.totalsSince(check.accountId, since);
    allocateCredits({
      credits: check.credits,
      planId: account.planId,
      planMonthlyCredits: account.plan.monthlyCredits,
      paygoLimit: account.paygoLimit,
      planUsed: totals.planCredits,
      paygoUsed: totals.paygoCredits,
      keyLimit,
      keyUsed,
    });
  }

  /**
   * GET /usage for the current calendar month (UTC). With a project, the per-endpoint figures and the key's
   * usage count only that project; plan and pay-as-you-go usage stay account-wide, as their limits are.
   */
  async usage(query: { accountId: string; apiKeyId: string; projectExternalId?: string | null }): Promise<UsageReport> {
    const { accounts, apiKeys, ledger, projects } = this.dependencies;
    const since = startOfUtcMonth(this.now());
    const account = await accounts.findById(query.accountId);
    if (!account) throw new BillingSubjectNotFoundError(`Account ${query.accountId} does not exist.`);
    const key = await apiKeys.findById(query.accountId, query.apiKeyId);
    if (!key) throw new BillingSubjectNotFoundError(`API key ${query.apiKeyId} is not a key of this account.`);

    const accountTotals = await ledger.usageSince(query.accountId, since);
    let accountScoped = accountTotals;
    let keyScoped: EndpointUsage;
    if (query.projectExternalId) {
      const project = await projects.findByExternalId(query.accountId, query.projectExternalId);
      const empty: EndpointUsage = { planCredits: 0, paygoCredits: 0, byEndpoint: {} };
      accountScoped = project ? await ledger.usageSince(query.accountId, since, { projectId: project.id }) : empty;
      keyScoped = project
        ? await ledger.usageSince(query.accountId, since, { apiKeyId: key.id, projectId: project.id })
        : empty;
    } else {
      keyScoped = await ledger.usageSince(query.accountId, since, { apiKeyId: key.id });
    }

    return {
      key: {
        usage: keyScoped.planCredits + keyScoped.paygoCredits,
        limit: key.creditLimit,
        ...endpointFigures(keyScoped),
      },
      account: {
        current_plan: account.plan.name,
        plan_usage: accountTotals.planCredits,
        plan_limit: account.plan.monthlyCredits,
        paygo_usage: accountTotals.paygoCredits,
        // null = unlimited: only the paygo plan without a ceiling; other plans without one have pay-as-you-go off.
        paygo_limit: account.paygoLimit ?? (account.planId === PAYGO_PLAN_ID ? null : 0),
        ...endpointFigures(accountScoped),
      },
    };
  }

  private async idempotent(
    input: ChargeInput | MeteredChargeInput,
    work: (session: LockedLedgerSession) => Promise<ChargeResult>,
  ): Promise<ChargeResult> {
    const { ledger } = this.dependencies;
    try {
      return await ledger.withAccountLock(input.accountId, async (session) => {
        const existing = await session.findEntry(input.requestId, input.kind);
        return existing ? replay(existing) : work(session);
      });
    } catch (error) {
      // The account lock serialises charges, so a retry normally finds the first row in findEntry. The unique
      // (request_id, kind) index is the backstop should two writers ever get past that check together.
      if (!isUniqueViolation(error)) throw error;
      const existing = await ledger.findEntry(input.accountId, input.requestId, input.kind);
      if (!existing) throw error;
      return replay(existing);
    }
  }

  private async allocate(session: LockedLedgerSession, apiKeyId: string | null, credits: number): Promise<Allocation> {
    const since = startOfUtcMonth(this.now());
    let keyLimit: number | null = null;
    let keyUsed = 0;
    if (apiKeyId) {
      const limit = await session.keyCreditLimit(apiKeyId);
      if (limit === undefined) throw new BillingSubjectNotFoundError(`API key ${apiKeyId} is not a key of this account.`);
      keyLimit = limit;
      if (keyLimit !== null) keyUsed = await session.keyTotalSince(apiKeyId, since);
    }
    const totals = await session.totalsSince(since);
    return allocateCredits({
      credits,
      planId: session.account.planId,
      planMonthlyCredits: session.account.planMonthlyCredits,
      paygoLimit: session.account.paygoLimit,
      planUsed: totals.planCredits,
      paygoUsed: totals.paygoCredits,
      keyLimit,
      keyUsed,
    });
  }

  private async record(session: LockedLedgerSession, input: ChargeInput | MeteredChargeInput, allocation: Allocation) {
    const projectId = input.projectExternalId ? await session.findOrCreateProject(input.projectExternalId) : null;
    await session.insertEntry({
      apiKeyId: input.apiKeyId,
      projectId,
      requestId: input.requestId,
      kind: input.kind,
      endpoint: input.endpoint,
      planCredits: allocation.planCredits,
      paygoCredits: allocation.paygoCredits,
    });
  }
}

function replay(entry: LedgerEntryRecord): ChargeResult {
  return {
    charged: entry.planCredits + entry.paygoCredits,
    planCredits: entry.planCredits,
    paygoCredits: entry.paygoCredits,
    replayed: true,
  };
}

function endpointFigures(usage: EndpointUsage) {
  return {
    search_usage: usage.byEndpoint['search'] ?? 0,
    extract_usage: usage.byEndpoint['extract'] ?? 0,
    crawl_usage: usage.byEndpoint['crawl'] ?? 0,
    map_usage: usage.byEndpoint['map'] ?? 0,
    research_usage: usage.byEndpoint['research'] ?? 0,
  };
}

function assertWholeCredits(value: number, name: string): void {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer.`);
}
