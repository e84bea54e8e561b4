import type { PrismaClient } from '../generated/prisma/client';

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
   * Runs `work` inside one transaction holding `SELECT ... FOR UPDATE` on the account row. Charges of the
   * same account therefore run one after another, so the "credits left" they read cannot be stale.
   */
  withAccountLock<T>(accountId: string, work: (session: LockedLedgerSession) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(
      async (transaction) => {
        const rows = await transaction.$queryRaw<
          { id: string; name: string; plan_id: string; plan_name: string; monthly_credits: number | null; paygo_limit: number | null }[]
        >`SELECT a.id::text AS id, a.name, a.plan_id, p.name AS plan_name, p.monthly_credits, a.paygo_limit
            FROM accounts a JOIN plans p ON p.id = a.plan_id
           WHERE a.id = ${accountId}::uuid
             FOR UPDATE OF a`;
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
