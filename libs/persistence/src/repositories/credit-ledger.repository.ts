import type { PrismaClient } from '../generated/prisma/client';
import { queryRows } from '../prisma-client';
import { isUuid } from './uuid';

export interface LedgerTotals {
  planCredits: number;
  paygoCredits: number;
}

/** A request for credits before the work, as `sift_reserve_credits` takes it. */
export interface ReservationRequest {
  accountId: string;
  apiKeyId: string | null;
  requestId: string;
  maximumCredits: number;
  minimumCredits: number;
  /** How long the credits stay held when the request neither settles nor releases them (a crashed gateway). */
  holdMilliseconds: number;
  /** Start of the period whose usage counts against the limits. */
  since: Date;
}

/** What `sift_reserve_credits` decided under the account lock. */
export type ReservationOutcome = 'reserved' | 'account_missing' | 'key_missing' | 'key_limit' | 'plan_limit' | 'paygo_limit' | 'conflict';

export interface ReservationResult {
  outcome: ReservationOutcome;
  /** Granted credits (0 unless reserved). */
  credits: number;
  /** False when nothing limits the account and key, so nothing was held. */
  held: boolean;
}

/** One charge of a settlement: fixed credits, or units of a carry-over meter at its rate. */
export type SettlementEntry =
  | { kind: string; credits: number }
  | { kind: string; meter: string; units: number; unitsPerBlock: number; creditsPerBlock: number };

export interface SettlementRequest {
  accountId: string;
  apiKeyId: string | null;
  projectId: string | null;
  requestId: string;
  endpoint: string;
  entries: readonly SettlementEntry[];
  since: Date;
}

export interface SettledEntry extends LedgerTotals {
  kind: string;
}

export type SettlementOutcome = 'settled' | 'replayed' | 'account_missing' | 'conflict';

export interface SettlementResult {
  outcome: SettlementOutcome;
  entries: SettledEntry[];
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
 * The append-only credit ledger, the carry-over meters of fractional billing and the reservations of requests
 * in progress (one aggregate). The charging rule itself is SQL (migration 20261123010000_credit_reservations):
 * each step is one autocommitted statement, so the account's lock is held only while the database runs it.
 */
export class CreditLedgerRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async reserve(request: ReservationRequest): Promise<ReservationResult> {
    if (!isUuid(request.accountId)) return { outcome: 'account_missing', credits: 0, held: false };
    if (request.apiKeyId !== null && !isUuid(request.apiKeyId)) return { outcome: 'key_missing', credits: 0, held: false };
    const rows = await queryRows<ReservationResult>(this.prisma, {
      name: 'sift_reserve_credits',
      text: `SELECT outcome, credits, held
             FROM sift_reserve_credits($1::uuid, $2::uuid, $3::text, $4::int, $5::int, $6::int, $7::timestamptz)`,
      values: [
        request.accountId,
        request.apiKeyId,
        request.requestId,
        request.maximumCredits,
        request.minimumCredits,
        Math.ceil(request.holdMilliseconds),
        request.since,
      ],
    });
    return rows[0];
  }

  async settle(request: SettlementRequest): Promise<SettlementResult> {
    if (!isUuid(request.accountId)) return { outcome: 'account_missing', entries: [] };
    const { entries } = request;
    const metered = (entry: SettlementEntry) => ('meter' in entry ? entry : null);
    const rows = await queryRows<{ outcome: SettlementOutcome; kind: string | null; plan_credits: number; paygo_credits: number }>(this.prisma, {
      name: 'sift_settle_credits',
      text: `SELECT outcome, kind, plan_credits, paygo_credits
             FROM sift_settle_credits($1::uuid, $2::uuid, $3::uuid, $4::text, $5::text,
                                      $6::text[], $7::int[], $8::text[], $9::int[], $10::int[], $11::int[], $12::timestamptz)`,
      values: [
        request.accountId,
        request.apiKeyId && isUuid(request.apiKeyId) ? request.apiKeyId : null,
        request.projectId,
        request.requestId,
        request.endpoint,
        entries.map((entry) => entry.kind),
        entries.map((entry) => ('credits' in entry ? entry.credits : 0)),
        entries.map((entry) => metered(entry)?.meter ?? null),
        entries.map((entry) => metered(entry)?.units ?? 0),
        entries.map((entry) => metered(entry)?.unitsPerBlock ?? 1),
        entries.map((entry) => metered(entry)?.creditsPerBlock ?? 0),
        request.since,
      ],
    });
    const outcome: SettlementOutcome = rows.some((row) => row.outcome === 'conflict') ? 'conflict' : (rows[0]?.outcome ?? 'settled');
    return {
      outcome,
      entries: rows
        .filter((row): row is typeof row & { kind: string } => row.kind !== null)
        .map((row) => ({ kind: row.kind, planCredits: row.plan_credits, paygoCredits: row.paygo_credits })),
    };
  }

  /** Drops a reservation unused: the request failed, nothing is charged. */
  async release(accountId: string, requestId: string): Promise<void> {
    if (!isUuid(accountId)) return;
    await queryRows(this.prisma, {
      name: 'sift_release_credits',
      text: 'DELETE FROM credit_reservations WHERE request_id = $1::text AND account_id = $2::uuid',
      values: [requestId, accountId],
    });
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
}
