import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { NewRequestLog, RequestLogRepository } from '@sift/persistence';

/** Rows buffered before a flush is started at once instead of waiting for the timer. */
const MAXIMUM_BUFFERED_ROWS = 200;
/** How long a finished request's log may wait for its batch. */
const FLUSH_INTERVAL_MS = 100;

interface PendingLog {
  accountId: string;
  log: NewRequestLog;
}

/**
 * Writes request-log rows in batches: one INSERT every 100 ms (or every 200 rows) instead of one per request,
 * which under load was a round trip and a foreign-key lock on the account row per search. Reads of the logs
 * flush first, so a caller always sees its finished requests; shutdown flushes what is left.
 */
@Injectable()
export class RequestLogWriter implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('request-log');
  private pending: PendingLog[] = [];
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(private readonly logs: RequestLogRepository) {}

  add(accountId: string, log: NewRequestLog): void {
    this.pending.push({ accountId, log: { ...log, createdAt: log.createdAt ?? new Date() } });
    if (this.pending.length >= MAXIMUM_BUFFERED_ROWS) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_INTERVAL_MS);
  }

  /** Resolves once every row added before the call is stored (or its failure logged). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    // Batches are written one after another so a reader that awaited flush() also waited for earlier batches.
    this.inFlight = this.inFlight.then(() => (batch.length > 0 ? this.write(batch) : undefined));
    return this.inFlight;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /** Requests still finishing while the HTTP server closed are written here. */
  async onApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  private async write(batch: PendingLog[]): Promise<void> {
    try {
      await this.logs.createMany(batch);
      return;
    } catch {
      // One bad row (say, of a key deleted meanwhile) must not cost the others theirs: retry them one by one.
    }
    for (const entry of batch) {
      try {
        await this.logs.createMany([entry]);
      } catch (error) {
        this.logger.warn(`could not record request ${entry.log.requestId}: ${(error as Error).message}`);
      }
    }
  }
}
