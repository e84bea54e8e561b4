import type { UsageBucketSize, UsageGrouping } from '@sift/persistence';

/** The time axis every chart of one view shares: the first instant (UTC) of each hour or day in the range. */
export interface TimeAxisView {
  from: string;
  to: string;
  bucket: UsageBucketSize;
  buckets: string[];
}

/** One line of a usage chart: a value per bucket of the axis. */
export interface SeriesView {
  /** Endpoint name, key id or account id; null for requests made without a key; "other" for the groups summed. */
  group: string | null;
  label: string;
  requests: number[];
  credits: number[];
  total_requests: number;
  total_credits: number;
}

export interface UsageView extends TimeAxisView {
  group_by: UsageGrouping;
  totals: { requests: number; credits: number; errors: number };
  series: SeriesView[];
}

export interface LatencyView extends TimeAxisView {
  /** Per endpoint and bucket; a percentile is null in a bucket without requests. */
  endpoints: Array<{ endpoint: string; requests: number[]; errors: number[]; p50_ms: Array<number | null>; p95_ms: Array<number | null> }>;
  status_counts: Array<{ status: number; requests: number }>;
}

export interface RequestsView {
  from: string;
  to: string;
  requests: Array<{
    id: string;
    request_id: string;
    timestamp: string;
    account: { id: string; name: string };
    key: { id: string; name: string | null; last_four: string | null } | null;
    endpoint: string;
    depth: string | null;
    status: number;
    /** Seconds. */
    response_time: number;
    credits: number;
  }>;
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: string | null;
}

/** This UTC month's credits of each account against its plan's allowance (null = unlimited). */
export interface AccountsView {
  month: string;
  accounts: Array<{
    id: string;
    name: string;
    plan: { id: string; name: string };
    plan_credits: number;
    plan_limit: number | null;
    paygo_credits: number;
    /** The account's pay-as-you-go ceiling as set; null = none set. */
    paygo_limit: number | null;
  }>;
}

export interface KeysView {
  month: string;
  keys: Array<{ id: string; name: string; last_four: string; status: string; credits: number; credit_limit: number | null }>;
}

export interface QueuesView {
  sampled_at: string;
  queues: Array<{ queue: string; waiting: number; active: number; delayed: number; oldest_waiting_seconds: number | null }>;
}
