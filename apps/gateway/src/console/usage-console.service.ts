import { Injectable } from '@nestjs/common';
import { JobQueue } from '@sift/queue';
import { QueueName } from '@sift/queue-contracts';
import {
  type UsageBucket,
  type UsageBucketSize,
  type UsageGrouping,
  type UsageReportFilter,
  UsageReportRepository,
} from '@sift/persistence';
import { ApiError } from '../http/api-error';
import { RequestLogWriter } from '../request-log/request-log-writer.service';
import {
  ACCOUNT_LIST_LIMITS,
  type AccountsQueryDto,
  type ConsoleFilterDto,
  type LatencyQueryDto,
  REQUEST_PAGE_LIMITS,
  type RequestsQueryDto,
  type UsageQueryDto,
} from './console-query.dto';
import type {
  AccountsView,
  KeysView,
  LatencyView,
  QueuesView,
  RequestsView,
  SeriesView,
  UsageView,
} from './console-views';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const BUCKET_MS: Record<UsageBucketSize, number> = { hour: HOUR_MS, day: DAY_MS };
/** Hourly buckets up to this range by default, daily beyond it. */
const HOURLY_UP_TO_MS = 3 * DAY_MS;
/** More points than any chart can show; also bounds what one request asks of Postgres. */
const MAXIMUM_BUCKETS = 1_000;
/** Groups drawn on their own; the rest are summed as "other", so a chart stays readable with thousands of keys. */
const MAXIMUM_SERIES = 8;

/** What the usage console shows, read from the request log, the monthly credit totals and the job queues. */
@Injectable()
export class UsageConsoleService {
  constructor(
    private readonly reports: UsageReportRepository,
    private readonly pendingLogs: RequestLogWriter,
    private readonly jobQueue: JobQueue,
  ) {}

  /** Requests and credits per bucket, one series per endpoint, key or account. */
  async usage(query: UsageQueryDto, now = new Date()): Promise<UsageView> {
    const { filter, size, starts } = await this.bucketed(query, now);
    const grouping: UsageGrouping = query.group_by ?? 'endpoint';
    const buckets = await this.reports.buckets(filter, size, grouping);
    return {
      ...rangeOf(filter, size, starts),
      group_by: grouping,
      totals: {
        requests: sum(buckets.map((bucket) => bucket.requests)),
        credits: sum(buckets.map((bucket) => bucket.credits)),
        errors: sum(buckets.map((bucket) => bucket.errors)),
      },
      series: seriesOf(buckets, starts),
    };
  }

  /** Latency percentiles and errors per bucket and endpoint, and how many requests ended with each status. */
  async latency(query: LatencyQueryDto, now = new Date()): Promise<LatencyView> {
    const { filter, size, starts } = await this.bucketed(query, now);
    const [buckets, statuses] = await Promise.all([this.reports.buckets(filter, size, 'endpoint'), this.reports.statusCounts(filter)]);
    const index = new Map(starts.map((start, position) => [start.getTime(), position]));
    const endpoints = [...new Set(buckets.map((bucket) => bucket.label))].sort();
    return {
      ...rangeOf(filter, size, starts),
      endpoints: endpoints.map((endpoint) => {
        const requests = starts.map(() => 0);
        const errors = starts.map(() => 0);
        const p50 = starts.map((): number | null => null);
        const p95 = starts.map((): number | null => null);
        for (const bucket of buckets.filter((candidate) => candidate.label === endpoint)) {
          const position = index.get(bucket.bucket.getTime());
          if (position === undefined) continue;
          requests[position] = bucket.requests;
          errors[position] = bucket.errors;
          p50[position] = milliseconds(bucket.p50Seconds);
          p95[position] = milliseconds(bucket.p95Seconds);
        }
        return { endpoint, requests, errors, p50_ms: p50, p95_ms: p95 };
      }),
      status_counts: statuses.map((status) => ({ status: status.statusCode, requests: status.requests })),
    };
  }

  /** One page of the request log, newest first; `next_cursor` continues it. */
  async requests(query: RequestsQueryDto, now = new Date()): Promise<RequestsView> {
    const filter = filterOf(query, now);
    await this.pendingLogs.flush();
    const limit = query.limit ?? REQUEST_PAGE_LIMITS.default;
    const page = await this.reports.page(filter, limit, query.cursor ? cursorOf(query.cursor) : undefined);
    return {
      from: filter.from.toISOString(),
      to: filter.to.toISOString(),
      requests: page.rows.map((row) => ({
        id: row.id,
        request_id: row.requestId,
        timestamp: row.createdAt.toISOString(),
        account: { id: row.accountId, name: row.accountName },
        key: row.apiKeyId ? { id: row.apiKeyId, name: row.apiKeyName, last_four: row.apiKeyLastFour } : null,
        endpoint: row.endpoint,
        depth: row.depth,
        status: row.statusCode,
        response_time: row.responseTime,
        credits: row.credits,
      })),
      next_cursor: page.next ? `${page.next.createdAt.toISOString()}~${page.next.id}` : null,
    };
  }

  /** Accounts with this month's credits against their plan, biggest spenders first. */
  async accounts(query: AccountsQueryDto, now = new Date()): Promise<AccountsView> {
    const accounts = await this.reports.accounts(now, { search: query.search || undefined, limit: query.limit ?? ACCOUNT_LIST_LIMITS.default });
    return {
      month: now.toISOString().slice(0, 7),
      accounts: accounts.map((account) => ({
        id: account.id,
        name: account.name,
        plan: { id: account.planId, name: account.planName },
        plan_credits: account.planCredits,
        plan_limit: account.monthlyCredits,
        paygo_credits: account.paygoCredits,
        paygo_limit: account.paygoLimit,
      })),
    };
  }

  /** The account's keys with this month's credits against each key's own limit. */
  async keys(accountId: string, now = new Date()): Promise<KeysView> {
    const keys = await this.reports.keys(accountId, now);
    return {
      month: now.toISOString().slice(0, 7),
      keys: keys.map((key) => ({
        id: key.id,
        name: key.name,
        last_four: key.lastFour,
        status: key.status,
        credits: key.credits,
        credit_limit: key.creditLimit,
      })),
    };
  }

  /** Each queue's backlog now, as /metrics reports it. */
  async queues(now = new Date()): Promise<QueuesView> {
    const depths = await this.jobQueue.depths(Object.values(QueueName));
    return {
      sampled_at: now.toISOString(),
      queues: depths.map((depth) => ({
        queue: depth.queue,
        waiting: depth.waiting,
        active: depth.active,
        delayed: depth.delayed,
        oldest_waiting_seconds: depth.oldestWaitingSeconds,
      })),
    };
  }

  private async bucketed(query: LatencyQueryDto, now: Date) {
    const filter = filterOf(query, now);
    const range = filter.to.getTime() - filter.from.getTime();
    const size = query.bucket ?? (range <= HOURLY_UP_TO_MS ? 'hour' : 'day');
    const starts = bucketStarts(filter.from, filter.to, size);
    // Logs are written in batches: store this gateway's pending rows so the figures include every finished request.
    await this.pendingLogs.flush();
    return { filter, size, starts };
  }
}

function filterOf(query: ConsoleFilterDto, now: Date): UsageReportFilter {
  const to = query.to ? new Date(query.to) : now;
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - DAY_MS);
  if (from >= to) throw new ApiError(400, 'from must be before to.');
  return {
    from,
    to,
    accountId: query.account,
    apiKeyId: query.key,
    endpoint: query.endpoint,
    status: query.status ? statusRange(query.status) : undefined,
  };
}

/** `429` is that code, `4xx` 400–499, `errors` every status from 400 up. */
function statusRange(status: string): { min: number; max: number } {
  if (status === 'errors') return { min: 400, max: 599 };
  if (status.endsWith('xx')) {
    const hundreds = Number(status[0]) * 100;
    return { min: hundreds, max: hundreds + 99 };
  }
  return { min: Number(status), max: Number(status) };
}

function cursorOf(cursor: string): { createdAt: Date; id: string } {
  const [timestamp, id] = cursor.split('~');
  const createdAt = new Date(timestamp);
  if (Number.isNaN(createdAt.getTime())) throw new ApiError(400, 'cursor must be a next_cursor of a previous page');
  return { createdAt, id };
}

/** The first instant of every UTC hour or day that overlaps [from, to). */
function bucketStarts(from: Date, to: Date, size: UsageBucketSize): Date[] {
  const step = BUCKET_MS[size];
  const first = Math.floor(from.getTime() / step) * step;
  const count = Math.ceil((to.getTime() - first) / step);
  if (count > MAXIMUM_BUCKETS) {
    throw new ApiError(400, `The range holds ${count} ${size} buckets, at most ${MAXIMUM_BUCKETS} are shown: choose a shorter range or daily buckets.`);
  }
  return Array.from({ length: count }, (_, position) => new Date(first + position * step));
}

function rangeOf(filter: UsageReportFilter, size: UsageBucketSize, starts: Date[]) {
  return { from: filter.from.toISOString(), to: filter.to.toISOString(), bucket: size, buckets: starts.map((start) => start.toISOString()) };
}

/** One series per group, the busiest first, each with a value for every bucket; past MAXIMUM_SERIES, one "other" for the rest. */
function seriesOf(buckets: UsageBucket[], starts: Date[]): SeriesView[] {
  const index = new Map(starts.map((start, position) => [start.getTime(), position]));
  const byGroup = new Map<string | null, SeriesView>();
  for (const bucket of buckets) {
    const position = index.get(bucket.bucket.getTime());
    if (position === undefined) continue;
    let series = byGroup.get(bucket.group);
    if (!series) {
      series = { group: bucket.group, label: bucket.label, requests: starts.map(() => 0), credits: starts.map(() => 0), total_requests: 0, total_credits: 0 };
      byGroup.set(bucket.group, series);
    }
    series.requests[position] += bucket.requests;
    series.credits[position] += bucket.credits;
    series.total_requests += bucket.requests;
    series.total_credits += bucket.credits;
  }
  const ranked = [...byGroup.values()].sort((a, b) => b.total_requests - a.total_requests || b.total_credits - a.total_credits || a.label.localeCompare(b.label));
  if (ranked.length <= MAXIMUM_SERIES) return ranked;
  const shown = ranked.slice(0, MAXIMUM_SERIES - 1);
  const rest = ranked.slice(MAXIMUM_SERIES - 1);
  const other: SeriesView = {
    group: 'other',
    label: `${rest.length} others`,
    requests: starts.map((_, position) => sum(rest.map((series) => series.requests[position]))),
    credits: starts.map((_, position) => sum(rest.map((series) => series.credits[position]))),
    total_requests: sum(rest.map((series) => series.total_requests)),
    total_credits: sum(rest.map((series) => series.total_credits)),
  };
  return [...shown, other];
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

function milliseconds(seconds: number): number {
  return Math.round(seconds * 10_000) / 10;
}
