// A worker process for the fault tests (started through scripts/run-ts.js): consumes SleeperJob on the queue
// prefix given in QUEUE_PREFIX, logs each job it starts, and drains on SIGTERM like the real workers.
import { defineJobHandler, runWorkerProcess, workerLogger } from '../index';
import { QueueName } from '@sift/queue-contracts';
import { SleeperJob } from './sleeper-job';

const log = workerLogger('sleeper-worker');

/** Spins for `ms`: nothing else in the process runs meanwhile (timers, sockets, lock renewals). */
function blockEventLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // Spinning is the point: this job stands for a regular expression backtracking or a huge schema compiling.
  }
}

runWorkerProcess({
  service: 'sleeper-worker',
  queue: QueueName.Extract,
  definitions: [SleeperJob],
  handlers: [
    defineJobHandler(SleeperJob, async (payload) => {
      log('info', 'job started', { id: payload.id });
      if (payload.busy) blockEventLoop(payload.ms);
      else await new Promise((resolve) => setTimeout(resolve, payload.ms));
      log('info', 'job finished', { id: payload.id });
      return { id: payload.id };
    }),
  ],
  concurrency: 1,
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  queuePrefix: process.env.QUEUE_PREFIX ?? 'sleeper',
  healthPort: Number(process.env.HEALTH_PORT ?? 0),
  healthPortSetting: 'HEALTH_PORT',
  stallRecovery: { lockDurationMs: Number(process.env.QUEUE_LOCK_DURATION_MS ?? 10_000), stalledIntervalMs: Number(process.env.QUEUE_STALLED_INTERVAL_MS ?? 5_000) },
  eventLoopWatch: process.env.EVENT_LOOP_REPORT_FOR_MS ? { reportForMs: Number(process.env.EVENT_LOOP_REPORT_FOR_MS) } : undefined,
}).catch((error: unknown) => {
  log('error', 'sleeper worker failed to start', { error: String(error) });
  process.exit(1);
});
