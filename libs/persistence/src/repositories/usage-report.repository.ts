import type { PrismaClient } from '../generated/prisma/client';
import { queryRows } from '../prisma-client';

/** Which request-log rows a report covers. Every field but the time range is optional (= all). */
export interface UsageReportFilter {
  /** Rows at or after this instant. */
  from: Date;
  /** Rows before this instant. */
  to: Date;
  accountId?: string;
  apiKeyId?: string;
  endpoint?: string;
  /** Status codes from `min` to `max`, both included. */
  status?: { min: number; max: number };
}

export type UsageBucketSize = 'hour' | 'day';
export type UsageGrouping = 'endpoint' | 'key' | 'account';

/** One time bucket of one group (an endpoint, a key or an account, as asked). */
export interface UsageBucket {
  /** The bucket's first instant (UTC). */
  bucket: Date;
  /** The endpoint name, the key id or the account id; null for requests without a key. */
  group: string | null;
  /** The endpoint, the key's name and last four characters, or the account's name. */
  label: string;
  requests: number;
  credits: number;
  /** Answers with a status of 400 or more. */
  errors: number;
  /** Response times in seconds, interpolated percentiles of the bucket's requests. */
  p50Seconds: number;
  p95Seconds: number;
}

export interface StatusCount {
  statusCode: number;
  requests: number;
}

/** An account with its plan and what it has spent this UTC month. */
export interface AccountUsage {
  id: string;
  name: string;
  planId: string;
  planName: string;
  /** The plan's monthly allowance; null = unlimited. */
  monthlyCredits: number | null;
  /** Pay-as-you-go ceiling per month; null = none set. */
  paygoLimit: number | null;
  planCredits: number;
  paygoCredits: number;
}

/** A key with what it has spent this UTC month. */
export interface KeyUsage {
  id: string;
  name: string;
  prefix: string;
  lastFour: string;
  status: string;
  creditLimit: number | null;
  credits: number;
}

/** A request-log row as the operator sees it: named account and key. */
export interface RequestLogLine {
  id: string;
  requestId: string;
  accountId: string;
  accountName: string;
  apiKeyId: string | null;
  apiKeyName: string | null;
  apiKeyLastFour: string | null;
  endpoint: string;
  depth: string | null;
  statusCode: number;
  responseTime: number;
  credits: number;
  createdAt: Date;
}

/** Where a page of the request log continues: the last row shown, by (created_at, id). */
export interface RequestLogCursor {
  createdAt: Date;
  id: string;
}

/** Per grouping: the group's id, a readable name for it, and the join that name needs. */
const GROUPS: Record<UsageGrouping, { id: string; label: string; join: string }> = {
  endpoint: { id: 'l.endpoint', label: 'l.endpoint', join: '' },
  key: {
    id: 'l.api_key_id::text',
    label: "coalesce(k.name || ' ****' || k.last_four, 'no key')",
    join: 'LEFT JOIN api_keys k ON k.id = l.api_key_id',
  },
  account: { id: 'l.account_id::text', label: 'a.name', join: 'JOIN accounts a ON a.id = l.account_id' },
};

/**
 * The operator's read model of usage across accounts (the usage console): aggregates of the request log, the
 * month's credit totals against the plans, and the log itself with filters. Read-only; tenants never reach it, so
 * unlike the per-account repositories its queries span accounts unless a filter names one.
 */
export class UsageReportRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Requests, credits, errors and latency percentiles per time bucket and group. */
  async buckets(filter: UsageReportFilter, size: UsageBucketSize, grouping: UsageGrouping): Promise<UsageBucket[]> {
    const where = whereClause(filter);
    const values = [...where.values, size];
    const group = GROUPS[grouping];
    const rows = await queryRows<{
      bucket: Date;
      group: string | null;
      label: string;
      requests: number;
      credits: number;
      errors: number;
      p50: number;
      p95: number;
    }>(this.prisma, {
      text: `SELECT date_trunc($${values.length}::text, l.created_at, 'UTC') AS bucket, ${group.id} AS "group", ${group.label} AS label,
                    count(*)::int AS requests, coalesce(sum(l.credits), 0)::int AS credits,
                    count(*) FILTER (WHERE l.status_code >= 400)::int AS errors,
                    percentile_cont(0.5) WITHIN GROUP (ORDER BY l.response_time) AS p50,
                    percentile_cont(0.95) WITHIN GROUP (ORDER BY l.response_time) AS p95
             FROM request_logs l ${group.join}
             WHERE ${where.text}
             GROUP BY 1, 2, 3
             ORDER BY 1, 2`,
      values,
    });
    return rows.map((row) => ({
      bucket: row.bucket,
      group: row.group,
      label: row.label,
      requests: row.requests,
      credits: row.credits,
      errors: row.errors,
      p50Seconds: row.p50,
      p95Seconds: row.p95,
    }));
  }

  async statusCounts(filter: UsageReportFilter): Promise<StatusCount[]> {
    const where = whereClause(filter);
    const rows = await queryRows<{ status_code: number; requests: number }>(this.prisma, {
      text: `SELECT l.status_code, count(*)::int AS requests FROM request_logs l WHERE ${where.text} GROUP BY 1 ORDER BY 1`,
      values: where.values,
    });
    return rows.map((row) => ({ statusCode: row.status_code, requests: row.requests }));
  }

  /** One page of the log, newest first, after `cursor` when given; `limit + 1` rows are read to know if more follow. */
  async page(filter: UsageReportFilter, limit: number, cursor?: RequestLogCursor): Promise<{ rows: RequestLogLine[]; next: RequestLogCursor | null }> {
    const where = whereClause(filter);
    const values = [...where.values];
    let after = '';
    if (cursor) {
      values.push(cursor.createdAt, cursor.id);
      after = `AND (l.created_at, l.id) < ($${values.length - 1}::timestamptz, $${values.length}::bigint)`;
    }
    values.push(limit + 1);
    const rows = await queryRows<{
      id: string;
      request_id: string;
      account_id: string;
      account_name: string;
      api_key_id: string | null;
      api_key_name: string | null;
      last_four: string | null;
      endpoint: string;
      depth: string | null;
      status_code: number;
      response_time: number;
      credits: number;
      created_at: Date;
    }>(this.prisma, {
      text: `SELECT l.id::text AS id, l.request_id, l.account_id, a.name AS account_name, l.api_key_id, k.name AS api_key_name,
                    k.last_four, l.endpoint, l.depth, l.status_code, l.response_time, l.credits, l.created_at
             FROM request_logs l
             JOIN accounts a ON a.id = l.account_id
             LEFT JOIN api_keys k ON k.id = l.api_key_id
             WHERE ${where.text} ${after}
             ORDER BY l.created_at DESC, l.id DESC
             LIMIT $${values.length}`,
      values,
    });
    const lines = rows.slice(0, limit).map(
      (row): RequestLogLine => ({
        id: row.id,
        requestId: row.request_id,
        accountId: row.account_id,
        accountName: row.account_name,
        apiKeyId: row.api_key_id,
        apiKeyName: row.api_key_name,
        apiKeyLastFour: row.last_four,
        endpoint: row.endpoint,
        depth: row.depth,
        statusCode: row.status_code,
        responseTime: row.response_time,
        credits: row.credits,
        createdAt: row.created_at,
      }),
    );
    const last = lines.at(-1);
    return { rows: lines, next: rows.length > limit && last ? { createdAt: last.createdAt, id: last.id } : null };
  }

  /**
   * Accounts with their plan and the credits spent in the UTC month of `now`, the biggest spenders first; `search`
   * keeps those whose name contains it (any case) or whose id it is.
   */
  async accounts(now: Date, options: { search?: string; limit: number }): Promise<AccountUsage[]> {
    const rows = await queryRows<{
      id: string;
      name: string;
      plan_id: string;
      plan_name: string;
      monthly_credits: number | null;
      paygo_limit: number | null;
      plan_credits: number;
      paygo_credits: number;
    }>(this.prisma, {
      name: 'sift_usage_report_accounts',
      text: `SELECT a.id, a.name, a.plan_id, p.name AS plan_name, p.monthly_credits, a.paygo_limit,
                    coalesce(u.plan_credits, 0)::float8 AS plan_credits, coalesce(u.paygo_credits, 0)::float8 AS paygo_credits
             FROM accounts a
             JOIN plans p ON p.id = a.plan_id
             LEFT JOIN credit_usage u ON u.account_id = a.id AND u.api_key_id IS NULL AND u.month = date_trunc('month', $1::timestamptz, 'UTC')
             WHERE $2::text IS NULL OR strpos(lower(a.name), lower($2::text)) > 0 OR a.id::text = lower($2::text)
             ORDER BY coalesce(u.plan_credits, 0) + coalesce(u.paygo_credits, 0) DESC, a.name
             LIMIT $3`,
      values: [now, options.search ?? null, options.limit],
    });
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      planId: row.plan_id,
      planName: row.plan_name,
      monthlyCredits: row.monthly_credits,
      paygoLimit: row.paygo_limit,
      planCredits: row.plan_credits,
      paygoCredits: row.paygo_credits,
    }));
  }

  /** The account's keys, oldest first, with the credits each spent in the UTC month of `now`. */
  async keys(accountId: string, now: Date): Promise<KeyUsage[]> {
    const rows = await queryRows<{
      id: string;
      name: string;
      prefix: string;
      last_four: string;
      status: string;
      credit_limit: number | null;
      credits: number;
    }>(this.prisma, {
      name: 'sift_usage_report_keys',
      text: `SELECT k.id, k.name, k.prefix, k.last_four, k.status::text AS status, k.credit_limit,
                    coalesce(u.plan_credits + u.paygo_credits, 0)::float8 AS credits
             FROM api_keys k
             LEFT JOIN credit_usage u ON u.account_id = k.account_id AND u.api_key_id = k.id AND u.month = date_trunc('month', $2::timestamptz, 'UTC')
             WHERE k.account_id = $1::uuid
             ORDER BY k.created_at, k.id`,
      values: [accountId, now],
    });
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      prefix: row.prefix,
      lastFour: row.last_four,
      status: row.status,
      creditLimit: row.credit_limit,
      credits: row.credits,
    }));
  }
}

/** The filter as SQL conditions on `request_logs l`, with positional parameters; only set fields add a condition. */
function whereClause(filter: UsageReportFilter): { text: string; values: unknown[] } {
  const values: unknown[] = [filter.from, filter.to];
  const conditions = ['l.created_at >= $1::timestamptz', 'l.created_at < $2::timestamptz'];
  const add = (condition: (placeholder: string) => string, value: unknown) => {
    values.push(value);
    conditions.push(condition(`$${values.length}`));
  };
  if (filter.accountId) add((p) => `l.account_id = ${p}::uuid`, filter.accountId);
  if (filter.apiKeyId) add((p) => `l.api_key_id = ${p}::uuid`, filter.apiKeyId);
  if (filter.endpoint) add((p) => `l.endpoint = ${p}::text`, filter.endpoint);
  if (filter.status) {
    add((p) => `l.status_code >= ${p}::int`, filter.status.min);
    add((p) => `l.status_code <= ${p}::int`, filter.status.max);
  }
  return { text: conditions.join(' AND '), values };
}
