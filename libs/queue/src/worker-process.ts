import { Registry } from 'prom-client';
import type { JobDefinition, QueueName } from '@sift/queue-contracts';
import { EventLoopWatch, type EventLoopWatchOptions } from './event-loop-watch';
import type { JobHandler } from './job-handler';
import { closeRedisConnection, createRedisConnection } from './redis-connection';
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
  /** The setting that chose healthPort, named when the port is taken (default: the service's own, e.g. EXTRACTOR_PORT). */
  healthPortSetting?: string;
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
  // The port first: a port another program holds stops the process before it takes any job (see bindHealthPort).
  const started: { worker?: Awaited<ReturnType<typeof startWorker>> } = {};
  const connection = createRedisConnection(options.redisUrl);
  const health = await bindHealthPort(options, log, {
    checkRedis: () => checkRedis(connection),
    dependencies: options.dependencies,
    eventLoop: () => eventLoop.health(),
    metrics: () => started.worker?.metrics.text() ?? Promise.resolve(''),
    metricsContentType: Registry.PROMETHEUS_CONTENT_TYPE,
  });
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
  started.worker = worker;
  options.registerMetrics?.(worker.metrics.registry);
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
    await closeRedisConnection(connection);
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

/**
 * Exit status of a process that cannot start as configured (sysexits' EX_CONFIG): `npm start`'s supervisor does not
 * restart it, since a restart would meet the same configuration.
 */
export const CONFIGURATION_EXIT_CODE = 78;

const HEALTH_PORT_SETTINGS: Record<string, string> = {
  'extractor-worker': 'EXTRACTOR_PORT',
  'crawler-worker': 'CRAWLER_PORT',
  'research-worker': 'RESEARCH_PORT',
};

/** The health server on its port; a port already taken ends the process with a line that says which setting to change. */
async function bindHealthPort(
  options: WorkerProcessOptions,
  log: WorkerLog,
  server: Omit<Parameters<typeof startWorkerHealthServer>[0], 'port'>,
): Promise<Awaited<ReturnType<typeof startWorkerHealthServer>>> {
  try {
    return await startWorkerHealthServer({ ...server, port: options.healthPort });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    const setting = options.healthPortSetting ?? HEALTH_PORT_SETTINGS[options.service] ?? 'the health port setting';
    log('error', `port ${options.healthPort} (${setting}) is already in use, by another Sift or another program: set ${setting} to a free port`, {
      port: options.healthPort,
      setting,
    });
    process.exit(CONFIGURATION_EXIT_CODE);
  }
}
