import type { QueueName } from '@sift/queue-contracts';
import type { JobHandler } from './job-handler';
import { createRedisConnection } from './redis-connection';
import { checkRedis } from './redis-health';
import { type StallRecovery, startWorker } from './start-worker';
import type { JobDefinition } from '@sift/queue-contracts';
import { startWorkerHealthServer } from './worker-health-server';

export type WorkerLog = (level: 'info' | 'error', message: string, details?: Record<string, unknown>) => void;

/** One JSON line per event on standard error, named after the worker process. */
export function workerLogger(service: string): WorkerLog {
  return (level, message, details = {}) => process.stderr.write(`${JSON.stringify({ level, service, message, ...details })}\n`);
}

export interface WorkerProcessOptions {
  service: string;
  queue: QueueName;
  handlers: readonly JobHandler[];
  concurrency: number;
  redisUrl: string;
  queuePrefix: string;
  /** Port of GET /health and GET /metrics (0 = any free port). */
  healthPort: number;
  /** Releases what the handlers hold (browser, database) after running jobs have finished. */
  release?: () => Promise<unknown>;
  /** Crash recovery timing (lock duration, stalled-job check interval). */
  stallRecovery?: Partial<StallRecovery>;
  /** The jobs the worker must cover; defaults to every job of `queue` in the contracts catalogue. */
  definitions?: readonly JobDefinition<unknown, unknown>[];
  /** Extra facts for the "worker started" log line. */
  startedDetails?: Record<string, unknown>;
}

/**
 * The whole life of a worker process: consume the queue (refusing to start when its jobs are not covered exactly
 * once), serve health and metrics, and on SIGTERM/SIGINT let running jobs finish before releasing resources.
 */
export async function runWorkerProcess(options: WorkerProcessOptions): Promise<void> {
  const log = workerLogger(options.service);
  const connection = createRedisConnection(options.redisUrl);
  const worker = await startWorker({
    queue: options.queue,
    handlers: options.handlers,
    concurrency: options.concurrency,
    connection,
    prefix: options.queuePrefix,
    definitions: options.definitions,
    stallRecovery: options.stallRecovery,
    onError: (error) => log('error', 'worker error', { error: error.message }),
    onStalled: (jobId) => log('error', 'took back a stalled job (its worker crashed or was blocked)', { jobId }),
  });
  const health = await startWorkerHealthServer({
    port: options.healthPort,
    checkRedis: () => checkRedis(connection),
    metrics: () => worker.metrics.text(),
    metricsContentType: worker.metrics.contentType,
  });
  log('info', `${options.service.replace(/-worker$/, '')} worker started`, { concurrency: options.concurrency, ...options.startedDetails, port: health.port });

  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    // Running jobs finish (worker.close waits for them); queued jobs stay in Redis for the next start.
    log('info', 'shutting down: finishing running jobs', { signal });
    await worker.close();
    log('info', 'running jobs finished; stopped', { signal });
    await Promise.allSettled([health.close(), options.release?.()]);
    await connection.quit();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
