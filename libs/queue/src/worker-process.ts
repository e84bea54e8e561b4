import type { Registry } from 'prom-client';
import type { JobDefinition, QueueName } from '@sift/queue-contracts';
import { EventLoopWatch, type EventLoopWatchOptions } from './event-loop-watch';
import type { JobHandler } from './job-handler';
import { createRedisConnection } from './redis-connection';
import { checkRedis } from './redis-health';
import { type FinishedJob, type StallRecovery, startWorker } from './start-worker';
import { type WorkerLog, workerLogger } from './structured-logger';
import { type DependencyCheck, startWorkerHealthServer } from './worker-health-server';

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
  /** What /health checks beside Redis (Postgres, Chromium), by name. */
  dependencies?: Record<string, DependencyCheck>;
  /** Adds the process's own metrics (its browser pool) to the worker's registry. */
  registerMetrics?: (registry: Registry) => void;
  /** When a pause of the event loop counts as a block, and how long /health reports it (EVENT_LOOP_WATCH). */
  eventLoopWatch?: Omit<EventLoopWatchOptions, 'onBlocked'>;
}

/**
 * The whole life of a worker process: consume the queue (refusing to start when its jobs are not covered exactly
 * once), serve health and metrics, report a blocked event loop, and on SIGTERM/SIGINT let running jobs finish
 * before releasing resources.
 */
export async function runWorkerProcess(options: WorkerProcessOptions): Promise<void> {
  const log = workerLogger(options.service);
  const eventLoop = new EventLoopWatch({
    ...options.eventLoopWatch,
    onBlocked: (blockedMs) => log('error', 'the event loop was blocked: a job ran synchronously; no other job, lock renewal or probe ran meanwhile', { blockedMs }),
  }).start();
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
    onJobFinished: (finished) => logFinishedJob(log, finished),
  });
  options.registerMetrics?.(worker.metrics.registry);
  const health = await startWorkerHealthServer({
    port: options.healthPort,
    checkRedis: () => checkRedis(connection),
    dependencies: options.dependencies,
    eventLoop: () => eventLoop.health(),
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
    eventLoop.stop();
    await Promise.allSettled([health.close(), options.release?.()]);
    await connection.quit();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** One line per job, carrying the request id of the request that made it (the job's scope). */
function logFinishedJob(log: WorkerLog, { error, ...job }: FinishedJob): void {
  if (error === undefined) log('info', 'job completed', job);
  else log('warn', 'job failed', { ...job, error });
}
