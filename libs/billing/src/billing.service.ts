import { DATABASE_INTEGER_MAX, type UsageResponseDto } from '@sift/api-contracts';
import type {
  AccountRepository,
  ApiKeyRepository,
  CreditLedgerRepository,
  EndpointUsage,
  ProjectRepository,
  SettledEntry,
  SettlementEntry,
} from '@sift/persistence';
import { BillingSubjectNotFoundError, CreditLimitError, PaygoLimitError } from './billing-errors';
import { CREDIT_COSTS, type BilledEndpoint, type BillingMeterName } from './credit-costs';
import { startOfUtcMonth } from './utc-month';

/** The largest grant, Postgres' integer. */
const MAXIMUM_RESERVATION = DATABASE_INTEGER_MAX;

/** The plan whose pay-as-you-go has no ceiling unless one is set (the SQL rule names it too). */
const PAYGO_PLAN_ID = 'paygo';

export interface ReserveInput {
  accountId: string;
  apiKeyId: string | null;
  /** X-Project-ID: the usage is attributed to this project of the account (created on first use). */
  projectExternalId?: string | null;
  /** The request's id: one reservation per request, and with each line's kind the ledger's idempotency key. */
  requestId: string;
  endpoint: BilledEndpoint;
  /** The most the request may cost (its worst case); the grant is at most this. */
  maximumCredits: number;
  /** Below this, the request cannot do any useful work: refused (432/433) before the work. */
  minimumCredits: number;
  /** How long the credits stay held if the request neither settles nor releases (its deadline plus a margin). */
  holdMilliseconds: number;
}

/** Credits granted to one request, to be settled after the work or released on failure. */
export interface Reservation {
  accountId: string;
  apiKeyId: string | null;
  projectId: string | null;
  requestId: string;
  endpoint: BilledEndpoint;
  /** What the request may spend: settle never charges more. */
  credits: number;
  /** False when nothing limits the account and key, so nothing was written to hold. */
  held: boolean;
}

/** One charge of a request: fixed credits, or successful units of a carry-over meter at its CREDIT_COSTS rate. */
export type ChargeLine = { kind: string; credits: number } | { kind: string; meter: BillingMeterName; units: number };

export interface ChargeResult {
  charged: number;
  planCredits: number;
  paygoCredits: number;
  /** True when this request had been settled before and the first result is returned. */
  replayed: boolean;
}

export interface BillingServiceDependencies {
  ledger: CreditLedgerRepository;
  accounts: AccountRepository;
  apiKeys: ApiKeyRepository;
  projects: ProjectRepository;
  now?: () => Date;
}

/**
 * How long an (account, key) the database found nothing to limit is trusted to stay so: its reservations are then
 * granted without a round trip. A limit set meanwhile is still enforced by the settlement, which never charges
 * past what the limits allow once no live reservation bounds it.
 */
const UNLIMITED_TRUSTED_MS = 10_000;
const UNLIMITED_REMEMBERED_BEFORE_SWEEP = 10_000;

/**
 * One charging rule for fixed and metered charges: reserve before the work, settle after it, release on failure.
 * The rule itself (limits counting the ledger and live reservations; plan credits first, then pay-as-you-go)
 * is SQL, in the functions of migration 20261123010000_credit_reservations, not TypeScript: each step is then
 * one statement holding the account lock only while Postgres runs it (search latency is benchmarked and every
 * round trip under the lock queues the account's other requests), and the rule exists once.
 */
export class BillingService {
  private readonly now: () => Date;
  /** (account, key) pairs sift_reserve_credits last found unlimited (held nothing), until when that is trusted. */
  private readonly unlimitedUntil = new Map<string, number>();

  constructor(private readonly dependencies: BillingServiceDependencies) {
    this.now = dependencies.now ?? (() => new Date());
  }

  /**
   * Grants min(maximum, what the key limit, the plan allowance and the pay-as-you-go ceiling still allow) and
   * holds it for the request, or throws CreditLimitError (432) / PaygoLimitError (433) when less than the minimum
   * is available. A second reserve of the same request returns the first grant.
   */
  async reserve(input: ReserveInput): Promise<Reservation> {
    assertWholeCredits(input.maximumCredits, 'maximumCredits');
    assertWholeCredits(input.minimumCredits, 'minimumCredits');
    if (input.minimumCredits > Math.min(input.maximumCredits, MAXIMUM_RESERVATION)) {
      throw new RangeError('minimumCredits must not exceed maximumCredits.');
    }
    if (!(input.holdMilliseconds > 0)) throw new RangeError('holdMilliseconds must be positive.');
    const { ledger, projects } = this.dependencies;
    // Outside the lock: a project named by X-Project-ID is created on first use whether or not the request is
    // granted (the request log creates it too).
    const projectId = input.projectExternalId ? (await projects.findOrCreate(input.accountId, input.projectExternalId)).id : null;
    const maximumCredits = Math.min(input.maximumCredits, MAXIMUM_RESERVATION);
    // Whether anything limits the caller is decided by the database alone (sift_reserve_credits); its last
    // "nothing" is remembered for a few seconds instead of being re-derived here.
    const pair = `${input.accountId}:${input.apiKeyId ?? ''}`;
    if ((this.unlimitedUntil.get(pair) ?? 0) > this.now().getTime()) {
      return { accountId: input.accountId, apiKeyId: input.apiKeyId, projectId, requestId: input.requestId, endpoint: input.endpoint, credits: maximumCredits, held: false };
    }
    const result = await ledger.reserve({
      accountId: input.accountId,
      apiKeyId: input.apiKeyId,
      requestId: input.requestId,
      // A crawl's worst case grows with its `limit`, which has no upper bound; no account holds more credits than
      // a database integer anyway.
      maximumCredits,
      minimumCredits: input.minimumCredits,
      holdMilliseconds: input.holdMilliseconds,
      since: startOfUtcMonth(this.now()),
    });
    switch (result.outcome) {
      case 'reserved':
        if (!result.held && result.credits === maximumCredits) this.rememberUnlimited(pair);
        else this.unlimitedUntil.delete(pair);
        return {
          accountId: input.accountId,
          apiKeyId: input.apiKeyId,
          projectId,
          requestId: input.requestId,
          endpoint: input.endpoint,
          credits: result.credits,
          held: result.held,
        };
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
        throw new Error(`Reservation ${input.requestId} already belongs to another account.`);
    }
  }

  /**
   * Charges what the request did: every line, the meters' carry-over (credits = floor((carry + units) / units
   * per block) × credits per block), the ledger rows and the reservation's removal in one transaction, never
   * more than the reservation granted. Idempotent: a retried settle of the same request returns the first
   * result and charges nothing more (BullMQ may deliver a job twice after a stall).
   */
  async settle(reservation: Reservation, lines: readonly ChargeLine[]): Promise<ChargeResult> {
    if (lines.length === 0) throw new RangeError('A settlement needs at least one line.');
    const entries = lines.map(settlementEntry);
    const result = await this.dependencies.ledger.settle({
      accountId: reservation.accountId,
      apiKeyId: reservation.apiKeyId,
      projectId: reservation.projectId,
      requestId: reservation.requestId,
      endpoint: reservation.endpoint,
      entries,
      since: startOfUtcMonth(this.now()),
    });
    switch (result.outcome) {
      case 'settled':
        return totals(result.entries, false);
      case 'replayed':
        return totals(result.entries, true);
      case 'account_missing':
        throw new BillingSubjectNotFoundError(`Account ${reservation.accountId} does not exist.`);
      case 'conflict':
        throw new Error(`Ledger entries of request ${reservation.requestId} already belong to another account.`);
    }
  }

  private rememberUnlimited(pair: string): void {
    if (this.unlimitedUntil.size >= UNLIMITED_REMEMBERED_BEFORE_SWEEP) {
      const now = this.now().getTime();
      for (const [known, until] of this.unlimitedUntil) if (until <= now) this.unlimitedUntil.delete(known);
    }
    this.unlimitedUntil.set(pair, this.now().getTime() + UNLIMITED_TRUSTED_MS);
  }

  /** The request failed: its credits are no longer held and nothing is charged. */
  async release(reservation: Reservation): Promise<void> {
    if (!reservation.held) return;
    await this.dependencies.ledger.release(reservation.accountId, reservation.requestId);
  }

  /**
   * GET /usage for the current calendar month (UTC). With a project, the per-endpoint figures and the key's
   * usage count only that project; plan and pay-as-you-go usage stay account-wide, as their limits are.
   */
  async usage(query: { accountId: string; apiKeyId: string; projectExternalId?: string | null }): Promise<UsageResponseDto> {
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
}

function settlementEntry(line: ChargeLine): SettlementEntry {
  if ('credits' in line) {
    assertWholeCredits(line.credits, 'credits');
    return line;
  }
  assertWholeCredits(line.units, 'units');
  return { kind: line.kind, meter: line.meter, units: line.units, ...CREDIT_COSTS.meters[line.meter] };
}

function totals(entries: readonly SettledEntry[], replayed: boolean): ChargeResult {
  const planCredits = entries.reduce((sum, entry) => sum + entry.planCredits, 0);
  const paygoCredits = entries.reduce((sum, entry) => sum + entry.paygoCredits, 0);
  return { charged: planCredits + paygoCredits, planCredits, paygoCredits, replayed };
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
