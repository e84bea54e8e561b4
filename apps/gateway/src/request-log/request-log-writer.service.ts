import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { NewRequestLog, RequestLogRepository } from '@sift/persistence';
import { Counter, Gauge, register } from 'prom-client';

/** Rows buffered before a flush is started at once instead of waiting for the timer. */
const MAXIMUM_BUFFERED_ROWS = 200;
/** How long a finished request's log may wait for its batch. */
const FLUSH_INTERVAL_MS = 100;
/**
 * Rows kept while Postgres is unreachable, retried until it answers. About 1 KB each: a bounded buffer, so an
 * outage costs at most this much memory; past it the oldest rows are dropped and counted.
 */
export const MAXIMUM_RETAINED_ROWS = 10_000;
const RETRY_FIRST_MS = 1_000;
const RETRY_MAXIMUM_MS = 30_000;

interface PendingLog {
  accountId: string;
  log: NewRequestLog;
}

export interface RequestLogWriterMetrics {
  dropped: Counter<'reason'>;
  retained: Gauge;
}

/** The loss is visible in /metrics rather than only in a log line. */
function writerMetrics(): RequestLogWriterMetrics {
  const dropped =
    (register.getSingleMetric('sift_request_logs_dropped_total') as Counter<'reason'> | undefined) ??
    new Counter({
      name: 'sift_request_logs_dropped_total',
      help: 'Request-log rows never stored: "rejected" by Postgres (bad row), or "overflow" of the buffer kept while Postgres was down.',
      labelNames: ['reason'],
    });
  const retained =
    (register.getSingleMetric('sift_request_logs_retained') as Gauge | undefined) ??
    new Gauge({ name: 'sift_request_logs_retained', help: 'Request-log rows waiting for Postgres to come back.' });
  return { dropped, retained };
}

/**
 * Writes request-log rows in batches: one INSERT every 100 ms (or every 200 rows) instead of one per request,
 * which under load was a round trip and a foreign-key lock on the account row per search. Reads of the logs
 * flush first, so a caller always sees its finished requests; shutdown flushes what is left. While Postgres is
 * unreachable rows are kept (up to MAXIMUM_RETAINED_ROWS) and retried with back-off, not silently dropped.
 */
@Injectable()
export class RequestLogWriter implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('request-log');
  private pending: PendingLog[] = [];
  /** Rows whose write failed because Postgres did not answer; written before newer rows. */
  private retained: PendingLog[] = [];
  private timer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelayMs = RETRY_FIRST_MS;
  private inFlight: Promise<void> = Promise.resolve();
  readonly metrics = writerMetrics();

  constructor(private readonly logs: RequestLogRepository) {}

  add(accountId: string, log: NewRequestLog): void {
    this.pending.push({ accountId, log: { ...log, createdAt: log.createdAt ?? new Date() } });
    if (this.pending.length >= MAXIMUM_BUFFERED_ROWS) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_INTERVAL_MS);
  }

  /** Resolves once every row added before the call is stored, retained for retry, or its loss counted. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    // Batches are written one after another so a reader that awaited flush() also waited for earlier batches.
    this.inFlight = this.inFlight.then(() => this.writeWithRetained(batch));
    return this.inFlight;
  }

  /** Rows waiting for Postgres to come back. */
  get retainedRows(): number {
    return this.retained.length;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /** Requests still finishing while the HTTP server closed are written here. */
  async onApplicationShutdown(): Promise<void> {
    await this.flush();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.retained.length > 0) {
      this.metrics.dropped.inc({ reason: 'overflow' }, this.retained.length);
      this.logger.error(`${this.retained.length} request logs could not be stored before shutdown: Postgres is unreachable`);
    }
  }

  private async writeWithRetained(batch: PendingLog[]): Promise<void> {
    const rows = this.retained.length > 0 ? [...this.retained, ...batch] : batch;
    this.retained = [];
    if (rows.length > 0) await this.write(rows);
    this.metrics.retained.set(this.retained.length);
    if (this.retained.length > 0) this.scheduleRetry();
    else this.retryDelayMs = RETRY_FIRST_MS;
  }

  private async write(batch: PendingLog[]): Promise<void> {
    try {
      await this.logs.createMany(batch);
      return;
    } catch (error) {
      if (!isRejectedRow(error)) return this.retain(batch, error);
      // One bad row (say, of a key deleted meanwhile) must not cost the others theirs: retry them one by one.
    }
    for (const [index, entry] of batch.entries()) {
      try {
        await this.logs.createMany([entry]);
      } catch (error) {
        if (!isRejectedRow(error)) return this.retain(batch.slice(index), error);
        this.metrics.dropped.inc({ reason: 'rejected' });
        this.logger.warn(`could not record request ${entry.log.requestId}: ${(error as Error).message}`);
      }
    }
  }

  private retain(rows: PendingLog[], cause: unknown): void {
    const overflow = Math.max(0, rows.length - MAXIMUM_RETAINED_ROWS);
    if (overflow > 0) {
      this.metrics.dropped.inc({ reason: 'overflow' }, overflow);
      this.logger.error(`dropped ${overflow} request logs: Postgres has been unreachable for too long`);
    }
    if (this.retained.length === 0 && overflow === 0) {
      this.logger.warn(`keeping ${rows.length} request logs until Postgres answers: ${(cause as Error)?.message ?? cause}`);
    }
    this.retained = rows.slice(overflow);
  }

  private scheduleRetry(): void {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.flush();
    }, this.retryDelayMs);
    this.retryTimer.unref();
    this.retryDelayMs = Math.min(this.retryDelayMs * 2, RETRY_MAXIMUM_MS);
  }
}

/**
 * Postgres refused this row (a data or constraint error: SQLSTATE class 22 or 23), as opposed to not answering
 * at all (connection refused, reset, timed out), after which the same row can be stored later.
 */
export function isRejectedRow(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    const candidate = current as { code?: unknown; meta?: { code?: unknown }; cause?: unknown; message?: unknown };
    for (const code of [candidate.code, candidate.meta?.code]) {
      if (typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code)) return true;
    }
    if (typeof candidate.message === 'string' && /violates|invalid input syntax|out of range|invalid byte sequence/i.test(candidate.message)) return true;
    current = candidate.cause;
  }
  return false;
}
