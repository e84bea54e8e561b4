import { type Job, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { JobDefinition, QueueName } from '@sift/queue-contracts';
import { JobFailedError } from './job-failed.error';
import { JobTimeoutError } from './job-timeout.error';
import { DEFAULT_QUEUE_PREFIX } from './queue-prefix';
import { validatePayload } from './validate-payload';

export interface JobQueueOptions {
  connection: Redis;
  prefix?: string;
  /** How long finished jobs stay readable in Redis, so a waiting caller that reconnects still gets the result. */
  keepCompletedForSeconds?: number;
  keepFailedForSeconds?: number;
}

export interface EnqueueOptions {
  /** Makes enqueueing idempotent: a second job with the same id is not added. */
  jobId?: string;
  /** Lower runs first (BullMQ semantics). */
  priority?: number;
}

export interface EnqueueAndWaitOptions extends EnqueueOptions {
  timeoutMs: number;
}

const TIMED_OUT = Symbol('timed-out');
/** BullMQ's own wait timer only cleans up its listeners; ours decides, so it fires a little later. */
const LISTENER_CLEANUP_GRACE_MS = 1_000;

/** The producer side of the queues: validated enqueue, and enqueue-then-wait for request/response callers. */
export class JobQueue {
  private readonly queues = new Map<QueueName, Queue>();
  private readonly queueEvents = new Map<QueueName, Promise<QueueEvents>>();
  private readonly prefix: string;

  constructor(private readonly options: JobQueueOptions) {
    this.prefix = options.prefix ?? DEFAULT_QUEUE_PREFIX;
  }

  async enqueue<Payload, Result>(
    definition: JobDefinition<Payload, Result>,
    payload: Payload,
    options: EnqueueOptions = {},
  ): Promise<Job<Payload, Result>> {
    const validPayload = validatePayload(definition, payload);
    const queue = this.queueFor(definition.queue);
    const job = await queue.add(definition.name, validPayload, {
      jobId: options.jobId,
      priority: options.priority,
      attempts: definition.attempts,
      removeOnComplete: { age: this.options.keepCompletedForSeconds ?? 3_600 },
      removeOnFail: { age: this.options.keepFailedForSeconds ?? 24 * 3_600 },
    });
    return job as Job<Payload, Result>;
  }

  /**
   * Enqueues a job and resolves with its validated result. Rejects with JobTimeoutError when the job has not
   * finished after `timeoutMs` (the job is removed if it has not started; a running job's result is ignored),
   * and with JobFailedError when its handler threw.
   */
  async enqueueAndWait<Payload, Result>(
    definition: JobDefinition<Payload, Result>,
    payload: Payload,
    options: EnqueueAndWaitOptions,
  ): Promise<Result> {
    // Listening before adding the job means a fast worker cannot finish before we subscribe.
    const events = await this.queueEventsFor(definition.queue);
    const job = await this.enqueue(definition, payload, options);
    const jobId = job.id ?? '';

    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), options.timeoutMs);
    });
    const finished = job.waitUntilFinished(events, options.timeoutMs + LISTENER_CLEANUP_GRACE_MS) as Promise<unknown>;
    // The race below may abandon this promise; its late rejection is expected and must not crash the process.
    finished.catch(() => undefined);

    let outcome: unknown;
    try {
      outcome = await Promise.race([finished, timedOut]);
    } catch (error) {
      throw new JobFailedError(definition.name, jobId, error instanceof Error ? error.message : String(error));
    } finally {
      clearTimeout(timer);
    }
    if (outcome === TIMED_OUT) {
      // Removing fails while a worker holds the job's lock; that run finishes and its result is dropped.
      await job.remove().catch(() => undefined);
      throw new JobTimeoutError(definition.name, jobId, options.timeoutMs);
    }
    return definition.resultSchema.parse(outcome);
  }

  async close(): Promise<void> {
    const events = await Promise.all(this.queueEvents.values());
    await Promise.all([...events.map((queueEvents) => queueEvents.close()), ...[...this.queues.values()].map((queue) => queue.close())]);
    this.queueEvents.clear();
    this.queues.clear();
  }

  private queueFor(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.options.connection, prefix: this.prefix });
      this.queues.set(name, queue);
    }
    return queue;
  }

  private queueEventsFor(name: QueueName): Promise<QueueEvents> {
    let events = this.queueEvents.get(name);
    if (!events) {
      const queueEvents = new QueueEvents(name, { connection: this.options.connection, prefix: this.prefix });
      events = queueEvents.waitUntilReady().then(() => queueEvents);
      this.queueEvents.set(name, events);
    }
    return events;
  }
}
