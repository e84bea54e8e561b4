import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { JobDefinition, QueueName } from '@sift/queue-contracts';
import { newConsumerName, startConsumerHeartbeat } from './consumer-heartbeat';
import { buildHandlerRegistry } from './handler-registry';
import { InvalidJobPayloadError } from './invalid-job-payload.error';
import { JobExpiredError, openEnvelope } from './job-envelope';
import { handedOverResult, resultKeepSecondsOf } from './job-result';
import { type ResultParts, resultPartsOf } from './result-parts';
import { withRequestId } from './request-scope';
import { DEFAULT_QUEUE_PREFIX } from './queue-prefix';
import type { JobHandler } from './job-handler';
import { WorkerMetrics } from './worker-metrics';

export interface StartWorkerOptions {
  queue: QueueName;
  handlers: readonly JobHandler[];
  concurrency: number;
  connection: Redis;
  prefix?: string;
  /** The jobs the worker must cover; defaults to every job of `queue` in the contracts catalogue. */
  definitions?: readonly JobDefinition<unknown, unknown>[];
  onError?: (error: Error) => void;
  /** Reports a job taken back from a worker that stopped renewing its lock (crashed or blocked). */
  onStalled?: (jobId: string) => void;
  /** Crash recovery timing; see STALL_RECOVERY. */
  stallRecovery?: Partial<StallRecovery>;
  /** Reports each job's end, inside the job's request scope (its log line carries the request id). */
  onJobFinished?: (finished: FinishedJob) => void;
}

export interface FinishedJob {
  queue: QueueName;
  job: string;
  jobId: string;
  attempt: number;
  durationMs: number;
  /** The failure's message; absent when the handler returned a result. */
  error?: string;
}

export interface StallRecovery {
  /** How long a worker's lock on a running job lasts; it is renewed every half of it while the worker is alive. */
  lockDurationMs: number;
  /** How often each worker looks for jobs whose lock expired (their worker died) and takes them back. */
  stalledIntervalMs: number;
}

/**
 * A killed worker's job is back in the queue within lockDuration + stalledInterval (≈ 15 s, was 30–65 s). The
 * lock stays long enough that a busy but live event loop (parsing runs off the main thread) renews it in time.
 * A job may be taken back once: one that stalls twice (it kills or blocks every worker it reaches: a poison
 * job) is failed, never re-delivered forever (maxStalledCount 1).
 */
export const STALL_RECOVERY: StallRecovery = { lockDurationMs: 10_000, stalledIntervalMs: 5_000 };
export const MAX_STALLED_COUNT = 1;

export interface RunningWorker {
  readonly queue: QueueName;
  /** The consumer's name: in its Redis connection name, its heartbeat and each job's processedBy. */
  readonly name: string;
  readonly metrics: WorkerMetrics;
  /** Stops taking jobs, lets running ones finish, then disconnects. */
  close(): Promise<void>;
}

function reportToStandardError(error: Error): void {
  process.stderr.write(`${JSON.stringify({ level: 'error', message: error.message, name: error.name })}\n`);
}

/**
 * Starts a BullMQ worker for one queue. Throws before consuming anything when the handlers do not cover the
 * queue's jobs exactly once, or when Redis cannot be reached.
 */
export async function startWorker(options: StartWorkerOptions): Promise<RunningWorker> {
  const registry = buildHandlerRegistry(options.queue, options.handlers, options.definitions);
  const metrics = new WorkerMetrics();
  const prefix = options.prefix ?? DEFAULT_QUEUE_PREFIX;

  const processJob = (job: Job): Promise<unknown> => {
    const { payload, deadlineAt, requestId, readsResultParts } = openEnvelope(job.data);
    // Everything the handler logs or enqueues belongs to the request that made this job.
    return withRequestId(requestId, () => runJob(job, payload, deadlineAt, readsResultParts));
  };

  const runJob = async (job: Job, payload: unknown, deadlineAt: number | undefined, readsResultParts: boolean | undefined): Promise<unknown> => {
    const handler = registry.get(job.name);
    const labels = { queue: options.queue, job: job.name };
    const stopTimer = metrics.duration.startTimer(labels);
    let failure: unknown;
    try {
      if (!handler) {
        throw new UnrecoverableError(`No handler for job "${job.name}" on queue "${options.queue}"`);
      }
      // A job its caller gave up on (queued too long, or taken back from a dead worker late) is not worth running.
      if (deadlineAt !== undefined && Date.now() >= deadlineAt) {
        metrics.expired.inc(labels);
        throw new UnrecoverableError(new JobExpiredError(job.name, job.id ?? '', deadlineAt).message);
      }
      let result: unknown;
      let parts: ResultParts<unknown> | undefined;
      const resultParts = <Item>(): ResultParts<Item> => (parts ??= resultPartsOf(options.connection, prefix, job, resultKeepSecondsOf(job))) as ResultParts<Item>;
      try {
        result = await handler.run(payload, { jobId: job.id ?? '', attempt: job.attemptsMade + 1, deadlineAt, ...(readsResultParts ? { resultParts } : {}) });
      } catch (error) {
        // A producer on another version sent a payload this worker cannot read; retrying cannot fix that.
        if (error instanceof InvalidJobPayloadError) throw new UnrecoverableError(error.message);
        throw error;
      }
      // A large result goes to a key of its own, read only by the caller waiting for it (job-result.ts).
      const returnValue = await handedOverResult(options.connection, prefix, job, parts ? parts.resultWithReference(result) : result);
      metrics.completed.inc(labels);
      return returnValue;
    } catch (error) {
      metrics.failed.inc(labels);
      failure = error;
      throw error;
    } finally {
      const seconds = stopTimer();
      options.onJobFinished?.({
        queue: options.queue,
        job: job.name,
        jobId: job.id ?? '',
        attempt: job.attemptsMade + 1,
        durationMs: Math.round(seconds * 1000),
        error: failure === undefined ? undefined : failure instanceof Error ? failure.message : String(failure),
      });
    }
  };

  const name = newConsumerName();
  const worker = new Worker(options.queue, processJob, {
    name,
    connection: options.connection,
    prefix,
    concurrency: options.concurrency,
    autorun: false,
    lockDuration: options.stallRecovery?.lockDurationMs ?? STALL_RECOVERY.lockDurationMs,
    stalledInterval: options.stallRecovery?.stalledIntervalMs ?? STALL_RECOVERY.stalledIntervalMs,
    maxStalledCount: MAX_STALLED_COUNT,
  });
  worker.on('error', options.onError ?? reportToStandardError);
  worker.on('stalled', (jobId) => {
    metrics.stalled.inc({ queue: options.queue });
    options.onStalled?.(jobId);
  });
  await worker.waitUntilReady();
  // run() resolves only when the worker closes; errors inside it are reported through the 'error' event.
  void worker.run().catch(options.onError ?? reportToStandardError);
  // A connected consumer may still be stuck (a job blocking its event loop); the beat tells the two apart.
  const heartbeat = startConsumerHeartbeat(options.connection, { prefix, queue: options.queue, consumer: name });

  return {
    queue: options.queue,
    name,
    metrics,
    close: async () => {
      // Still beating while running jobs finish: the consumer is busy, not stuck.
      await worker.close();
      await heartbeat.stop();
    },
  };
}
