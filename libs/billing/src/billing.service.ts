import {
  isUniqueViolation,
  type AccountRepository,
  type ApiKeyRepository,
  type CreditLedgerRepository,
  type EndpointUsage,
  type LedgerTotals,
  type LockedLedgerSession,
  type ProjectRepository,
  type SpendingPosition,
} from '@sift/persistence';
import { BillingSubjectNotFoundError, CreditLimitError, PaygoLimitError } from './billing-errors';
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
  /**
   * How long a pre-check remembers that an (account, key) has no limit at all (enterprise or pay-as-you-go
   * without a ceiling, no key limit) and skips its database read. Default 10 s, as long as API keys are cached;
   * 0 turns it off. A limit set meanwhile is still enforced by the charge after the work.
   */
  unlimitedPositionTtlMs?: number;
}

/** Entries of the unlimited-position cache, oldest dropped first. */
const UNLIMITED_POSITION_ENTRIES = 10_000;

export class BillingService {
  private readonly now: () => Date;
  private readonly unlimitedPositionTtlMs: number;
  /** `${accountId}/${apiKeyId}` → when the remembered "no limit" expires (epoch ms). */
  private readonly unlimitedUntil = new Map<string, number>();

  constructor(private readonly dependencies: BillingServiceDependencies) {
    this.now = dependencies.now ?? (() => new Date());
    this.unlimitedPositionTtlMs = dependencies.unlimitedPositionTtlMs ?? 10_000;
  }

  /**
   * Charges `credits` through the ledger, or throws CreditLimitError (432) / PaygoLimitError (433). The decision
   * and the ledger row are one database statement under the account lock (see `CreditLedgerRepository.chargeFixed`).
   */
  async charge(input: ChargeInput): Promise<ChargeResult> {
    assertWholeCredits(input.credits, 'credits');
    const { ledger, projects } = this.dependencies;
    // Outside the lock: a project named by X-Project-ID is created on first use whether or not the charge passes
    // (the request log creates it too).
    const projectId = input.projectExternalId ? (await projects.findOrCreate(input.accountId, input.projectExternalId)).id : null;
    const result = await ledger.chargeFixed({
      accountId: input.accountId,
      apiKeyId: input.apiKeyId,
      projectId,
      requestId: input.requestId,
      kind: input.kind,
      endpoint: input.endpoint,
      credits: input.credits,
      since: startOfUtcMonth(this.now()),
    });
    switch (result.outcome) {
      case 'charged':
        return { charged: input.credits, planCredits: result.planCredits, paygoCredits: result.paygoCredits, replayed: false };
      case 'replayed':
        return replay(result);
      case 'account_missing':
        throw new BillingSubjectNotFoundError(`Account ${input.accountId} does not exist.`);
      case 'key_missing':
        throw new BillingSubjectNotFoundError(`API key ${input.apiKeyId} is not a key of this account.`);
      case 'key_limit':
        throw new CreditLimitError('key');
      case 'plan_limit':
        throw new CreditLimitError('plan');
      case 'paygo_limit':
        throw new PaygoLimitError();
      case 'conflict':
        throw new Error(`Ledger entry (${input.requestId}, ${input.kind}) already belongs to another account.`);
    }
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
    return this.idempotent(input, async (session, allocate) => {
      const total = (await session.readMeter(input.meter)) + input.units;
      const credits = Math.floor(total / input.unitsPerBlock) * input.creditsPerBlock;
      const allocation = allocate(credits);
      await session.writeMeter(input.meter, total % input.unitsPerBlock);
      // A row is written even for 0 credits: it is the marker that makes a retry of this request a no-op.
      await this.record(session, input, allocation);
      return { charged: credits, ...allocation, replayed: false };
    });
  }

  /** Pre-check before doing the work; the authoritative check is the locked one inside charge(). */
  async assertCanSpend(check: SpendCheck): Promise<void> {
    assertWholeCredits(check.credits, 'credits');
    const now = this.now();
    const cacheKey = `${check.accountId}/${check.apiKeyId ?? ''}`;
    if ((this.unlimitedUntil.get(cacheKey) ?? 0) > now.getTime()) return;
    const position = await this.dependencies.ledger.spendingPosition(check.accountId, check.apiKeyId ?? null, startOfUtcMonth(now));
    if (!position) throw new BillingSubjectNotFoundError(`Account ${check.accountId} does not exist.`);
    if (check.apiKeyId && !position.keyFound) throw new BillingSubjectNotFoundError(`API key ${check.apiKeyId} is not a key of this account.`);
    const inputs = allocationInputs(position, Boolean(check.apiKeyId));
    allocateCredits({ credits: check.credits, ...inputs });
    if (this.unlimitedPositionTtlMs > 0 && hasNoLimit(inputs)) {
      this.unlimitedUntil.delete(cacheKey);
      if (this.unlimitedUntil.size >= UNLIMITED_POSITION_ENTRIES) this.unlimitedUntil.delete(this.unlimitedUntil.keys().next().value as string);
      this.unlimitedUntil.set(cacheKey, now.getTime() + this.unlimitedPositionTtlMs);
    }
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
    work: (session: LockedLedgerSession, allocate: (credits: number) => Allocation) => Promise<ChargeResult>,
  ): Promise<ChargeResult> {
    const { ledger } = this.dependencies;
    try {
      return await ledger.withAccountLock(input.accountId, async (session) => {
        // The earlier attempt's entry and the spending position come in one read while the lock is held.
        const state = await session.chargeState(input.requestId, input.kind, input.apiKeyId, startOfUtcMonth(this.now()));
        if (state.existing) return replay(state.existing);
        if (input.apiKeyId && !state.position.keyFound) {
          throw new BillingSubjectNotFoundError(`API key ${input.apiKeyId} is not a key of this account.`);
        }
        const inputs = allocationInputs(state.position, Boolean(input.apiKeyId));
        return work(session, (credits) => allocateCredits({ credits, ...inputs }));
      });
    } catch (error) {
      // The account lock serialises charges, so a retry normally finds the first row in chargeState. The unique
      // (request_id, kind) index is the backstop should two writers ever get past that check together.
      if (!isUniqueViolation(error)) throw error;
      const existing = await ledger.findEntry(input.accountId, input.requestId, input.kind);
      if (!existing) throw error;
      return replay(existing);
    }
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

/** The allocation rule's inputs from a spending position; without a key, no key limit applies. */
function allocationInputs(position: SpendingPosition, withKey: boolean) {
  return {
    planId: position.planId,
    planMonthlyCredits: position.planMonthlyCredits,
    paygoLimit: position.paygoLimit,
    planUsed: position.planUsed,
    paygoUsed: position.paygoUsed,
    keyLimit: withKey ? position.keyCreditLimit : null,
    keyUsed: withKey ? position.keyUsed : 0,
  };
}

/** No charge of any size can be refused: no key limit, and an unlimited plan or uncapped pay-as-you-go. */
function hasNoLimit(inputs: ReturnType<typeof allocationInputs>): boolean {
  if (inputs.keyLimit !== null) return false;
  return inputs.planMonthlyCredits === null || (inputs.planId === PAYGO_PLAN_ID && inputs.paygoLimit === null);
}

function replay(entry: LedgerTotals): ChargeResult {
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
