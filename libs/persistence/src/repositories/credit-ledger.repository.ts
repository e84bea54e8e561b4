import type { PrismaClient } from '../generated/prisma/client';
import { queryRows } from '../prisma-client';
import { isUuid } from './uuid';

type TransactionClient = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

export interface LedgerEntryRecord {
  accountId: string;
  apiKeyId: string | null;
  projectId: string | null;
  requestId: string;
  kind: string;
  endpoint: string;
  planCredits: number;
  paygoCredits: number;
  createdAt: Date;
}

export interface NewLedgerEntry {
  apiKeyId: string | null;
  projectId: string | null;
  requestId: string;
  kind: string;
  endpoint: string;
  planCredits: number;
  paygoCredits: number;
}

/** The account row as read under its lock, with the plan it is on. */
export interface LockedAccount {
  id: string;
  name: string;
  planId: string;
  planName: string;
  planMonthlyCredits: number | null;
  paygoLimit: number | null;
}

export interface LedgerTotals {
  planCredits: number;
  paygoCredits: number;
}

/** What the billing rules read before a charge: the account's plan, one key's limit and the month's usage. */
export interface SpendingPosition {
  planId: string;
  planMonthlyCredits: number | null;
  paygoLimit: number | null;
  /** False when the key is not a key of this account (or no key was asked about). */
  keyFound: boolean;
  keyCreditLimit: number | null;
  /** The key's credits since the start of the period; 0 when the key has no limit (not needed then). */
  keyUsed: number;
  /** The account's credits since the start of the period; 0 when the plan has no monthly allowance (not needed then). */
  planUsed: number;
  paygoUsed: number;
}

/** The spending position under the account lock, and the entry an earlier attempt of this charge wrote, if any. */
export interface LockedChargeState {
  position: SpendingPosition;
  existing: LedgerTotals | null;
}

/** A fixed-credit charge as `sift_charge_credits` takes it. */
export interface FixedChargeRequest {
  accountId: string;
  apiKeyId: string | null;
  projectId: string | null;
  requestId: string;
  kind: string;
  endpoint: string;
  credits: number;
  /** Start of the period whose usage counts against the limits. */
  since: Date;
}

/** What `sift_charge_credits` did: the refusals are the allocation rule's, decided under the account lock. */
export type FixedChargeOutcome =
  | 'charged'
  | 'replayed'
  | 'account_missing'
  | 'key_missing'
  | 'key_limit'
  | 'plan_limit'
  | 'paygo_limit'
  | 'conflict';

export interface FixedChargeResult extends LedgerTotals {
  outcome: FixedChargeOutcome;
}

export interface UsageFilter {
  apiKeyId?: string;
  projectId?: string;
}

/** Credits per endpoint name, plus the plan / pay-as-you-go split of their sum. */
export interface EndpointUsage extends LedgerTotals {
  byEndpoint: Record<string, number>;
}

/**
 * Everything the billing rules need while the account row is locked. All of it runs in the same database
 * transaction, so a ledger insert and a meter update commit or roll back together.
 */
export interface LockedLedgerSession {
  readonly account: LockedAccount;
  /** findEntry, keyCreditLimit, keyTotalSince and totalsSince in one round trip (the lock is held meanwhile). */
  chargeState(requestId: string, kind: string, apiKeyId: string | null, since: Date): Promise<LockedChargeState>;
  findEntry(requestId: string, kind: string): Promise<LedgerEntryRecord | null>;
  totalsSince(since: Date): Promise<LedgerTotals>;
  keyTotalSince(apiKeyId: string, since: Date): Promise<number>;
  /** undefined when the key does not belong to the locked account. */
  keyCreditLimit(apiKeyId: string): Promise<number | null | undefined>;
  findOrCreateProject(externalId: string): Promise<string>;
  insertEntry(entry: NewLedgerEntry): Promise<LedgerEntryRecord>;
  readMeter(meter: string): Promise<number>;
  writeMeter(meter: string, units: number): Promise<void>;
}

export interface CreditLedgerRepositoryOptions {
  /** How long a charge may wait for a pooled connection (all charges of an account queue on one lock). */
  maxWaitMilliseconds?: number;
  timeoutMilliseconds?: number;
}

export class AccountNotFoundForLedgerError extends Error {
  constructor(accountId: string) {
    super(`Account ${accountId} does not exist.`);
    this.name = 'AccountNotFoundForLedgerError';
  }
}

const entrySelect = {
  accountId: true,
  apiKeyId: true,
  projectId: true,
  requestId: true,
  kind: true,
  endpoint: true,
  planCredits: true,
  paygoCredits: true,
  createdAt: true,
} as const;

/** The append-only credit ledger and the carry-over meters of fractional billing (one aggregate). */
export class CreditLedgerRepository {
  private readonly maxWait: number;
  private readonly timeout: number;

  constructor(
    private readonly prisma: PrismaClient,
    options: CreditLedgerRepositoryOptions = {},
  ) {
    this.maxWait = options.maxWaitMilliseconds ?? 20_000;
    this.timeout = options.timeoutMilliseconds ?? 20_000;
  }

  /**
   * Runs `work` inside one transaction holding `SELECT ... FOR NO KEY UPDATE` on the account row. Charges of the
   * same account therefore run one after another, so the "credits left" they read cannot be stale. NO KEY UPDATE
   * (not UPDATE) still excludes every other charge, but not the key-share locks that foreign-key checks take:
   * with FOR UPDATE, every request-log insert of the account waited for the charge in progress.
   */
  withAccountLock<T>(accountId: string, work: (session: LockedLedgerSession) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(
      async (transaction) => {
        const rows = await transaction.$queryRaw<
          { id: string; name: string; plan_id: string; plan_name: string; monthly_credits: number | null; paygo_limit: number | null }[]
        >`SELECT a.id::text AS id, a.name, a.plan_id, p.name AS plan_name, p.monthly_credits, a.paygo_limit
            FROM accounts a JOIN plans p ON p.id = a.plan_id
           WHERE a.id = ${accountId}::uuid
             FOR NO KEY UPDATE OF a`;
        const row = rows[0];
        if (!row) throw new AccountNotFoundForLedgerError(accountId);
        const account: LockedAccount = {
          id: row.id,
          name: row.name,
          planId: row.plan_id,
          planName: row.plan_name,
          planMonthlyCredits: row.monthly_credits,
          paygoLimit: row.paygo_limit,
        };
        return work(this.session(transaction, account));
      },
      { maxWait: this.maxWait, timeout: this.timeout },
    );
  }

  findEntry(accountId: string, requestId: string, kind: string): Promise<LedgerEntryRecord | null> {
    return this.prisma.creditLedger.findFirst({ where: { accountId, requestId, kind }, select: entrySelect });
  }

  totalsSince(accountId: string, since: Date): Promise<LedgerTotals> {
    return sumTotals(this.prisma, accountId, since);
  }

  /**
   * Lock, replay check, limits and ledger insert in one autocommitted statement (the `sift_charge_credits`
   * function), so the account row is locked only while the database runs it, not across round trips.
   */
  async chargeFixed(request: FixedChargeRequest): Promise<FixedChargeResult> {
    if (!isUuid(request.accountId)) return { outcome: 'account_missing', planCredits: 0, paygoCredits: 0 };
    if (request.apiKeyId !== null && !isUuid(request.apiKeyId)) return { outcome: 'key_missing', planCredits: 0, paygoCredits: 0 };
    const rows = await queryRows<{ outcome: FixedChargeOutcome; plan_credits: number; paygo_credits: number }>(this.prisma, {
      name: 'sift_charge_credits',
      text: `SELECT outcome, plan_credits, paygo_credits
             FROM sift_charge_credits($1::uuid, $2::uuid, $3::uuid, $4::text, $5::text, $6::text, $7::int, $8::timestamptz)`,
      values: [request.accountId, request.apiKeyId, request.projectId, request.requestId, request.kind, request.endpoint, request.credits, request.since],
    });
    const row = rows[0];
    return { outcome: row.outcome, planCredits: row.plan_credits, paygoCredits: row.paygo_credits };
  }

  /** The pre-check's reads in one statement; null when the account does not exist. */
  async spendingPosition(accountId: string, apiKeyId: string | null, since: Date): Promise<SpendingPosition | null> {
    if (!isUuid(accountId)) return null;
    // Outside a transaction: straight on the pool, as a prepared statement (it runs before every paid request).
    const rows = await queryRows<ChargeStateRow>(this.prisma, { name: 'sift_spending_position', ...chargeStateStatement(accountId, apiKeyId, since, null) });
    const state = chargeStateOf(rows[0]);
    return state?.position ?? null;
  }

  keyTotalSince(accountId: string, apiKeyId: string, since: Date): Promise<number> {
    return sumKey(this.prisma, accountId, apiKeyId, since);
  }

  async usageSince(accountId: string, since: Date, filter: UsageFilter = {}): Promise<EndpointUsage> {
    const groups = await this.prisma.creditLedger.groupBy({
      by: ['endpoint'],
      where: {
        accountId,
        createdAt: { gte: since },
        ...(filter.apiKeyId ? { apiKeyId: filter.apiKeyId } : {}),
        ...(filter.projectId ? { projectId: filter.projectId } : {}),
      },
      _sum: { planCredits: true, paygoCredits: true },
    });
    const usage: EndpointUsage = { planCredits: 0, paygoCredits: 0, byEndpoint: {} };
    for (const group of groups) {
      const plan = group._sum.planCredits ?? 0;
      const paygo = group._sum.paygoCredits ?? 0;
      usage.planCredits += plan;
      usage.paygoCredits += paygo;
      usage.byEndpoint[group.endpoint] = plan + paygo;
    }
    return usage;
  }

  private session(transaction: TransactionClient, account: LockedAccount): LockedLedgerSession {
    const accountId = account.id;
    return {
      account,
      chargeState: async (requestId, kind, apiKeyId, since) => {
        const state = await readChargeState(transaction, accountId, apiKeyId, since, { requestId, kind });
        if (!state) throw new AccountNotFoundForLedgerError(accountId);
        return state;
      },
      findEntry: (requestId, kind) =>
        transaction.creditLedger.findFirst({ where: { accountId, requestId, kind }, select: entrySelect }),
      totalsSince: (since) => sumTotals(transaction, accountId, since),
      keyTotalSince: (apiKeyId, since) => sumKey(transaction, accountId, apiKeyId, since),
      keyCreditLimit: async (apiKeyId) => {
        const key = await transaction.apiKey.findFirst({ where: { id: apiKeyId, accountId }, select: { creditLimit: true } });
        return key ? key.creditLimit : undefined;
      },
      findOrCreateProject: async (externalId) => {
        const project = await transaction.project.upsert({
          where: { accountId_externalId: { accountId, externalId } },
          create: { accountId, externalId },
          update: {},
          select: { id: true },
        });
        return project.id;
      },
      insertEntry: (entry) =>
        transaction.creditLedger.create({ data: { ...entry, accountId }, select: entrySelect }),
      readMeter: async (meter) => {
        const row = await transaction.billingMeter.findUnique({ where: { accountId_meter: { accountId, meter } } });
        return row?.units ?? 0;
      },
      writeMeter: async (meter, units) => {
        await transaction.billingMeter.upsert({
          where: { accountId_meter: { accountId, meter } },
          create: { accountId, meter, units },
          update: { units },
        });
      },
    };
  }
}

interface ChargeStateRow {
  plan_id: string;
  monthly_credits: number | null;
  paygo_limit: number | null;
  key_found: boolean;
  key_credit_limit: number | null;
  key_used: number;
  plan_used: number;
  paygo_used: number;
  existing_plan_credits: number | null;
  existing_paygo_credits: number | null;
}

/**
 * One statement for everything a charge decision reads: every extra round trip is time the account row stays
 * locked, and all charges of an account queue on that lock. The sums use the (account_id, created_at) index.
 */
async function readChargeState(
  client: TransactionClient,
  accountId: string,
  apiKeyId: string | null,
  since: Date,
  entry: { requestId: string; kind: string } | null,
): Promise<LockedChargeState | null> {
  const statement = chargeStateStatement(accountId, apiKeyId, since, entry);
  const rows = await client.$queryRawUnsafe<ChargeStateRow[]>(statement.text, ...statement.values);
  return chargeStateOf(rows[0]);
}

const CHARGE_STATE_SQL = `
    SELECT a.plan_id, p.monthly_credits, a.paygo_limit,
           k.id IS NOT NULL AS key_found, k.credit_limit AS key_credit_limit,
           CASE WHEN k.credit_limit IS NULL THEN 0 ELSE (
             SELECT coalesce(sum(l.plan_credits + l.paygo_credits), 0) FROM credit_ledger l
             WHERE l.account_id = a.id AND l.api_key_id = k.id AND l.created_at >= $3::timestamptz
           ) END::float8 AS key_used,
           totals.plan_used, totals.paygo_used,
           existing.plan_credits AS existing_plan_credits, existing.paygo_credits AS existing_paygo_credits
    FROM accounts a
    JOIN plans p ON p.id = a.plan_id
    LEFT JOIN api_keys k ON k.id = $2::uuid AND k.account_id = a.id
    CROSS JOIN LATERAL (
      SELECT coalesce(sum(l.plan_credits), 0)::float8 AS plan_used, coalesce(sum(l.paygo_credits), 0)::float8 AS paygo_used
      FROM credit_ledger l
      -- A plan without a monthly allowance limits nothing: skip summing a busy account's month of entries.
      WHERE p.monthly_credits IS NOT NULL AND l.account_id = a.id AND l.created_at >= $3::timestamptz
    ) AS totals
    LEFT JOIN LATERAL (
      SELECT l.plan_credits, l.paygo_credits FROM credit_ledger l
      WHERE l.account_id = a.id AND l.request_id = $4::text AND l.kind = $5::text
      LIMIT 1
    ) AS existing ON true
    WHERE a.id = $1::uuid`;

function chargeStateStatement(
  accountId: string,
  apiKeyId: string | null,
  since: Date,
  entry: { requestId: string; kind: string } | null,
): { text: string; values: unknown[] } {
  const keyId = apiKeyId && isUuid(apiKeyId) ? apiKeyId : null;
  return { text: CHARGE_STATE_SQL, values: [accountId, keyId, since, entry?.requestId ?? null, entry?.kind ?? null] };
}

function chargeStateOf(row: ChargeStateRow | undefined): LockedChargeState | null {
  if (!row) return null;
  return {
    position: {
      planId: row.plan_id,
      planMonthlyCredits: row.monthly_credits,
      paygoLimit: row.paygo_limit,
      keyFound: row.key_found,
      keyCreditLimit: row.key_credit_limit,
      keyUsed: row.key_used,
      planUsed: row.plan_used,
      paygoUsed: row.paygo_used,
    },
    existing:
      row.existing_plan_credits === null || row.existing_paygo_credits === null
        ? null
        : { planCredits: row.existing_plan_credits, paygoCredits: row.existing_paygo_credits },
  };
}

async function sumTotals(client: TransactionClient, accountId: string, since: Date): Promise<LedgerTotals> {
  const sum = await client.creditLedger.aggregate({
    where: { accountId, createdAt: { gte: since } },
    _sum: { planCredits: true, paygoCredits: true },
  });
  return { planCredits: sum._sum.planCredits ?? 0, paygoCredits: sum._sum.paygoCredits ?? 0 };
}

async function sumKey(client: TransactionClient, accountId: string, apiKeyId: string, since: Date): Promise<number> {
  const sum = await client.creditLedger.aggregate({
    where: { accountId, apiKeyId, createdAt: { gte: since } },
    _sum: { planCredits: true, paygoCredits: true },
  });
  return (sum._sum.planCredits ?? 0) + (sum._sum.paygoCredits ?? 0);
}

/** True for Prisma's unique-constraint violation (P2002), e.g. a concurrent retry of the same (request_id, kind). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';
}
