import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { JobDefinition, QueueName } from '@sift/queue-contracts';
import { buildHandlerRegistry } from './handler-registry';
import { InvalidJobPayloadError } from './invalid-job-payload.error';
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
}

export interface RunningWorker {
  readonly queue: QueueName;
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

  const processJob = async (job: Job): Promise<unknown> => {
    const handler = registry.get(job.name);
    const labels = { queue: options.queue, job: job.name };
    const stopTimer = metrics.duration.startTimer(labels);
    try {
      if (!handler) {
        throw new UnrecoverableError(`No handler for job "${job.name}" on queue "${options.queue}"`);
      }
      let result: unknown;
      try {
        result = await handler.run(job.data, { jobId: job.id ?? '', attempt: job.attemptsMade + 1 });
      } catch (error) {
        // A producer on another version sent a payload this worker cannot read; retrying cannot fix that.
        if (error instanceof InvalidJobPayloadError) throw new UnrecoverableError(error.message);
        throw error;
      }
      metrics.completed.inc(labels);
      return result;
    } catch (error) {
      metrics.failed.inc(labels);
      throw error;
    } finally {
      stopTimer();
    }
  };

  const worker = new Worker(options.queue, processJob, {
    connection: options.connection,
    prefix: options.prefix ?? DEFAULT_QUEUE_PREFIX,
    concurrency: options.concurrency,
    autorun: false,
  });
  worker.on('error', options.onError ?? reportToStandardError);
  await worker.waitUntilReady();
  // run() resolves only when the worker closes; errors inside it are reported through the 'error' event.
  void worker.run().catch(options.onError ?? reportToStandardError);

  return {
    queue: options.queue,
    metrics,
    close: () => worker.close(),
  };
}
