import { randomUUID } from 'node:crypto';
import { type Job, type JobsOptions, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { JobDefinition, QueueName } from '@sift/queue-contracts';
import { beatingConsumers, CONSUMER_HEARTBEAT, consumerNameOf } from './consumer-heartbeat';
import { JobFailedError } from './job-failed.error';
import { JobTimeoutError } from './job-timeout.error';
import { DEFAULT_QUEUE_PREFIX } from './queue-prefix';
import { QueueUnavailableError } from './queue-unavailable.error';
import { blockingOptionsOf, waitForRedis } from './redis-connection';
import { validatePayload } from './validate-payload';
import { isExpiryReason, withEnvelope } from './job-envelope';
import { DEFAULT_KEEP_COMPLETED_SECONDS, receivedResult, resultKeyOf } from './job-result';
import { currentRequestId } from './request-scope';
import { hasResultParts, ResultPartsReader, resultPartsKeyOf, resultWithParts } from './result-parts';

export interface JobQueueOptions {
  /** Best opened with `createRedisConnection(url, { failFast: true })`: an outage then fails requests at once. */
  connection: Redis;
  prefix?: string;
  /**
   * How long completed jobs stay in Redis (default an hour), so a job added again under the same id (research tasks,
   * callers that choose their ids) finds it instead of running twice. A waited-for job with an id nobody else knows
   * stays only until its caller's deadline and WAITED_RESULT_GRACE_SECONDS more: its result (a whole page, a crawl)
   * reaches the caller in the completed event, and Redis need not hold an hour of results.
   */
  keepCompletedForSeconds?: number;
  keepFailedForSeconds?: number;
  /** The longest a single Redis step (enqueue, subscribe, remove) may take before the caller gets QueueUnavailableError. */
  redisStepTimeoutMs?: number;
}

export interface EnqueueOptions {
  /** Makes enqueueing idempotent: a second job with the same id is not added. */
  jobId?: string;
  /** Lower runs first (BullMQ semantics). */
  priority?: number;
  /** Epoch ms after which no worker starts the job: its caller no longer waits for the answer. */
  deadlineAt?: number;
}

export interface EnqueueAndWaitOptions extends Omit<EnqueueOptions, 'deadlineAt'> {
  timeoutMs: number;
}

export interface QueueConsumers {
  queue: QueueName;
  /** Worker connections consuming the queue right now (BullMQ's CLIENT LIST view). */
  consumers: number;
  /**
   * Those of them whose heartbeat is recent (CONSUMER_HEARTBEAT.silentAfterMs): a consumer whose event loop a job
   * blocks keeps its connections, so it is counted in `consumers`, but it takes no job and answers none.
   */
  responsive: number;
}

/** Jobs of one queue by state, and how long the oldest waiting one has waited (null when none waits). */
export interface QueueDepth {
  queue: QueueName;
  waiting: number;
  active: number;
  delayed: number;
  oldestWaitingSeconds: number | null;
}

const DEFAULT_REDIS_STEP_TIMEOUT_MS = 2_000;
/** A waited-for job's result stays this long past its caller's deadline (keepCompletedForSeconds). */
const WAITED_RESULT_GRACE_SECONDS = 60;

interface Waiter {
  resolve(returnValue: unknown): void;
  reject(error: Error): void;
  /** The items of the job's result read while it runs, for a job that streams them. */
  parts?: ResultPartsReader;
}

/** The producer side of the queues: validated enqueue, and enqueue-then-wait for request/response callers. */
export class JobQueue {
  private readonly queues = new Map<QueueName, Queue>();
  private readonly queueEvents = new Map<QueueName, Promise<QueueEvents>>();
  /**
   * One 'completed' and one 'failed' listener per queue, dispatching by job id. BullMQ's waitUntilFinished adds
   * two listeners per waiting job, which passed Node's limit of 10 (MaxListenersExceededWarning) under load.
   */
  private readonly waiters = new Map<string, Waiter>();
  private readonly prefix: string;
  private readonly stepTimeoutMs: number;

  constructor(private readonly options: JobQueueOptions) {
    this.prefix = options.prefix ?? DEFAULT_QUEUE_PREFIX;
    this.stepTimeoutMs = options.redisStepTimeoutMs ?? DEFAULT_REDIS_STEP_TIMEOUT_MS;
  }

  async enqueue<Payload, Result>(
    definition: JobDefinition<Payload, Result>,
    payload: Payload,
    options: EnqueueOptions = {},
  ): Promise<Job<Payload, Result>> {
    return this.add(definition, payload, options, this.keepCompletedSeconds());
  }

  private async add<Payload, Result>(
    definition: JobDefinition<Payload, Result>,
    payload: Payload,
    options: EnqueueOptions,
    keepCompletedSeconds: number,
    waited = false,
  ): Promise<Job<Payload, Result>> {
    const validPayload = validatePayload(definition, payload);
    await this.assertConnected('enqueue');
    const queue = this.queueFor(definition.queue);
    const job = await this.withinStepTimeout('enqueue', queue.add(definition.name, this.jobData(validPayload, options.deadlineAt, waited), this.jobOptions(definition, options, keepCompletedSeconds)));
    return job as Job<Payload, Result>;
  }

  /**
   * Enqueues a job and resolves with its validated result. The job carries its deadline (now + `timeoutMs`),
   * after which no worker starts it. Rejects with JobTimeoutError when the job has not finished by then (the
   * job is removed if it has not started; a running job's result is ignored), with JobFailedError when its
   * handler threw, and with QueueUnavailableError at once when Redis is unreachable.
   */
  async enqueueAndWait<Payload, Result>(
    definition: JobDefinition<Payload, Result>,
    payload: Payload,
    options: EnqueueAndWaitOptions,
  ): Promise<Result> {
    const deadlineAt = Date.now() + options.timeoutMs;
    await this.assertConnected('enqueue');
    await this.withinStepTimeout('subscribe', this.queueEventsFor(definition.queue));
    const jobId = options.jobId ?? randomUUID();
    const parts = definition.streamsResultParts ? new ResultPartsReader(this.options.connection, resultPartsKeyOf(this.prefix, definition.queue, jobId)) : undefined;
    // Registered before the job is added, so a fast worker cannot finish before we listen.
    const finished = this.finishedPromise(jobId, parts);

    try {
      const keep = options.jobId ? this.keepCompletedSeconds() : this.keepCompletedSeconds(options.timeoutMs);
      const job = await this.add(definition, payload, { ...options, jobId, deadlineAt }, keep, true);
      parts?.start();
      if (options.jobId) await this.settleIfAlreadyFinished(definition.queue, jobId);
      return await this.resultOf(definition, job, finished, deadlineAt, options.timeoutMs);
    } finally {
      parts?.stop();
      this.waiters.delete(jobId);
    }
  }

  /**
   * Enqueues one job per payload in a single Redis round trip (BullMQ's addBulk, one MULTI) and waits for all of
   * them, for callers that fan one request out to many jobs. Each entry of the answer, in the payloads' order,
   * settles as enqueueAndWait would have for that payload: the validated result, or InvalidJobPayloadError (that
   * payload is not enqueued), JobFailedError or JobTimeoutError. Rejects as a whole only with QueueUnavailableError,
   * when Redis does not take the jobs.
   */
  async enqueueAllAndWait<Payload, Result>(
    definition: JobDefinition<Payload, Result>,
    payloads: readonly Payload[],
    options: Pick<EnqueueAndWaitOptions, 'timeoutMs' | 'priority'> & {
      /** Called as each payload's job settles (by its index), for callers that time each one. */
      onSettled?: (index: number) => void;
    },
  ): Promise<PromiseSettledResult<Result>[]> {
    const deadlineAt = Date.now() + options.timeoutMs;
    type Entry = { payload: Payload; jobId: string } | { invalid: unknown };
    const entries = payloads.map((payload): Entry => {
      try {
        return { payload: validatePayload(definition, payload), jobId: randomUUID() };
      } catch (error) {
        return { invalid: error };
      }
    });
    const valid = entries.filter((entry): entry is Extract<Entry, { jobId: string }> => 'jobId' in entry);
    const waiting = new Map<string, Promise<unknown>>();
    try {
      let jobs: Job[] = [];
      if (valid.length > 0) {
        await this.assertConnected('enqueue');
        await this.withinStepTimeout('subscribe', this.queueEventsFor(definition.queue));
        // Registered before the jobs are added, so a fast worker cannot finish one before we listen.
        for (const { jobId } of valid) waiting.set(jobId, this.finishedPromise(jobId));
        const bulk = valid.map(({ payload, jobId }) => ({
          name: definition.name,
          data: this.jobData(payload, deadlineAt, true),
          opts: this.jobOptions(definition, { jobId, priority: options.priority }, this.keepCompletedSeconds(options.timeoutMs)),
        }));
        jobs = await this.withinStepTimeout('enqueue', this.queueFor(definition.queue).addBulk(bulk));
      }
      const jobsById = new Map(jobs.map((job) => [job.id, job as Job<Payload, Result>]));
      return await Promise.allSettled(
        entries.map(async (entry, index) => {
          try {
            if ('invalid' in entry) throw entry.invalid;
            const job = jobsById.get(entry.jobId);
            const finished = waiting.get(entry.jobId);
            if (!job || !finished) throw new JobFailedError(definition.name, entry.jobId, 'the job was not enqueued');
            return await this.resultOf(definition, job, finished, deadlineAt, options.timeoutMs);
          } finally {
            options.onSettled?.(index);
          }
        }),
      );
    } finally {
      for (const jobId of waiting.keys()) this.waiters.delete(jobId);
    }
  }

  /** Settles when the queue events report the job completed (its return value) or failed. */
  private finishedPromise(jobId: string, parts?: ResultPartsReader): Promise<unknown> {
    const finished = new Promise<unknown>((resolve, reject) => this.waiters.set(jobId, { resolve, reject, parts }));
    // The race in resultOf may abandon this promise; its late rejection is expected and must not crash the process.
    finished.catch(() => undefined);
    return finished;
  }

  /** The job's validated result once `finished` settles, or JobFailedError, or JobTimeoutError at `deadlineAt`. */
  private async resultOf<Payload, Result>(
    definition: JobDefinition<Payload, Result>,
    job: Job<Payload, Result>,
    finished: Promise<unknown>,
    deadlineAt: number,
    timeoutMs: number,
  ): Promise<Result> {
    const jobId = job.id ?? '';
    let timer: NodeJS.Timeout | undefined;
    try {
      const timedOut = new Promise<typeof TIMED_OUT>((resolve) => {
        timer = setTimeout(() => resolve(TIMED_OUT), Math.max(0, deadlineAt - Date.now()));
      });
      let outcome: unknown;
      try {
        outcome = await Promise.race([finished, timedOut]);
      } catch (error) {
        // Redis stopped answering while the result was read from its key: the queue is unavailable, the job did not fail.
        if (error instanceof QueueUnavailableError) throw error;
        const reason = error instanceof Error ? error.message : String(error);
        // Expired in the queue: the deadline this caller waits to passed before any worker was free. That is this
        // caller's timeout, reported by the worker a moment before (or after) the caller's own timer.
        if (isExpiryReason(reason)) throw new JobTimeoutError(definition.name, jobId, timeoutMs);
        throw new JobFailedError(definition.name, jobId, reason);
      }
      if (outcome === TIMED_OUT) {
        // Removing fails while a worker holds the job's lock; that run finishes and its result is dropped. The
        // job's deadline keeps a worker from starting it later if the removal does not get through.
        await this.withinStepTimeout('remove', job.remove()).catch(() => undefined);
        throw new JobTimeoutError(definition.name, jobId, timeoutMs);
      }
      return definition.resultSchema.parse(outcome);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A job's data: the payload and its envelope. A job enqueued while serving a request carries that request's id into the worker's log lines. */
  private jobData<Payload>(payload: Payload, deadlineAt: number | undefined, waited: boolean): Payload {
    // A caller that waits for the job reads its result through deliver(), which reads a result's parts too.
    return withEnvelope(payload, { deadlineAt, requestId: currentRequestId(), readsResultParts: waited });
  }

  /** Seconds a completed job stays: keepCompletedForSeconds, or for a caller waiting `waitMs` at most that wait and the grace. */
  private keepCompletedSeconds(waitMs?: number): number {
    const keep = this.options.keepCompletedForSeconds ?? DEFAULT_KEEP_COMPLETED_SECONDS;
    return waitMs === undefined ? keep : Math.min(keep, Math.ceil(waitMs / 1000) + WAITED_RESULT_GRACE_SECONDS);
  }

  private jobOptions<Payload, Result>(
    definition: JobDefinition<Payload, Result>,
    options: Pick<EnqueueOptions, 'jobId' | 'priority'>,
    keepCompletedSeconds: number,
  ): JobsOptions {
    return {
      jobId: options.jobId,
      priority: options.priority,
      attempts: definition.attempts,
      removeOnComplete: { age: keepCompletedSeconds },
      removeOnFail: { age: this.options.keepFailedForSeconds ?? 24 * 3_600 },
    };
  }

  /**
   * How many workers consume each queue, and how many of them are responsive; a queue with no responsive consumer
   * answers nothing until its deadline.
   */
  async consumers(queues: readonly QueueName[]): Promise<QueueConsumers[]> {
    await this.assertConnected('count consumers');
    const [connected, beating] = await Promise.all([
      Promise.all(queues.map((queue) => this.withinStepTimeout('count consumers', this.queueFor(queue).getWorkers()))),
      this.withinStepTimeout('count consumers', beatingConsumers(this.options.connection, this.prefix, queues, CONSUMER_HEARTBEAT.silentAfterMs)),
    ]);
    // CLIENT LIST spans every database of the Redis server: another deployment on another database, with the same
    // queue prefix, would be counted as this one's consumers. Only the connections on this database are ours.
    const ownDatabase = this.options.connection.options.db ?? 0;
    return queues.map((queue, index) => {
      const names = connected[index].filter((client) => Number(client.db ?? 0) === ownDatabase).map((client) => consumerNameOf(client.rawname));
      const beatingNow = beating.get(queue) ?? new Set<string>();
      return { queue, consumers: names.length, responsive: names.filter((name) => name !== undefined && beatingNow.has(name)).length };
    });
  }

  /**
   * Each queue's depth and the age of its oldest waiting job, for /metrics. Bounded cost: one count per state and
   * one job read per queue, whatever the backlog.
   */
  async depths(queues: readonly QueueName[]): Promise<QueueDepth[]> {
    await this.assertConnected('read queue depth');
    return Promise.all(queues.map((queue) => this.withinStepTimeout('read queue depth', this.depthOf(queue))));
  }

  /**
   * Starts listening to the queues' events ahead of the first wait: a process that has just started, on a loaded
   * machine, can take longer than the step timeout to subscribe, and its first requests would answer "unavailable".
   * Waits at most `waitMs` and never throws: a subscription not ready by then goes on, and the first wait shares it.
   */
  async subscribe(queues: readonly QueueName[], waitMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const subscribed = Promise.allSettled(queues.map((queue) => this.queueEventsFor(queue)));
    await Promise.race([subscribed, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
  }

  async close(): Promise<void> {
    // Callers still waiting (a search's fetches left to finish in the background) stop now, not at their deadline.
    for (const waiter of this.waiters.values()) waiter.reject(new Error('the job queue was closed'));
    this.waiters.clear();
    const events = await Promise.all(this.queueEvents.values());
    await Promise.all([...events.map((queueEvents) => queueEvents.close()), ...[...this.queues.values()].map((queue) => queue.close())]);
    this.queueEvents.clear();
    this.queues.clear();
  }

  private async depthOf(name: QueueName): Promise<QueueDepth> {
    const queue = this.queueFor(name);
    // A job with a priority waits in the "prioritized" set rather than the "wait" list; both are waiting.
    const [counts, oldest] = await Promise.all([queue.getJobCounts('wait', 'prioritized', 'active', 'delayed'), queue.getJobs(['wait', 'prioritized'], 0, 0, true)]);
    const enqueuedAt = oldest.filter((job) => job !== undefined).map((job) => job.timestamp);
    return {
      queue: name,
      waiting: (counts.wait ?? 0) + (counts.prioritized ?? 0),
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      oldestWaitingSeconds: enqueuedAt.length === 0 ? null : Math.max(0, (Date.now() - Math.min(...enqueuedAt)) / 1000),
    };
  }

  /** A caller-chosen id may name a job that finished before this call: no event will come for it. */
  private async settleIfAlreadyFinished(queueName: QueueName, jobId: string): Promise<void> {
    const job = await this.withinStepTimeout('read job', this.queueFor(queueName).getJob(jobId));
    const waiter = this.waiters.get(jobId);
    if (!job || !waiter) return;
    if (job.finishedOn && !job.failedReason) this.deliver(waiter, job.returnvalue);
    else if (job.finishedOn) waiter.reject(new Error(job.failedReason));
  }

  /**
   * Settles a waiter with a completed job's result: its return value, or the result it hands over through a key, its
   * list field made of the items it handed over while it ran (result-parts.ts).
   */
  private deliver(waiter: Waiter, returnValue: unknown): void {
    if (resultKeyOf(returnValue) === undefined && !hasResultParts(returnValue)) {
      waiter.resolve(returnValue);
      return;
    }
    const result = receivedResult(this.options.connection, returnValue).then((received) => resultWithParts(this.options.connection, received, waiter.parts));
    this.withinStepTimeout('read job result', result).then(
      (result) => waiter.resolve(result),
      (error: unknown) => waiter.reject(error instanceof Error ? error : new Error(String(error))),
    );
  }

  /**
   * A connection still opening (a process that just started, or one reconnecting right now) gets the step
   * timeout to become ready; one that has lost its server and waits to retry fails at once.
   */
  private async assertConnected(operation: string): Promise<void> {
    const status = this.options.connection.status;
    if (status === 'ready') return;
    const opening = status === 'wait' || status === 'connecting' || status === 'connect';
    if (opening && (await waitForRedis(this.options.connection, this.stepTimeoutMs))) return;
    throw new QueueUnavailableError(operation);
  }

  private async withinStepTimeout<T>(operation: string, step: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    // The step may still settle after we gave up on it; that late rejection is expected.
    step.catch(() => undefined);
    try {
      return await Promise.race([
        step,
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new QueueUnavailableError(operation, `no answer within ${this.stepTimeoutMs} ms`)), this.stepTimeoutMs);
        }),
      ]);
    } catch (error) {
      if (error instanceof QueueUnavailableError) throw error;
      if (isRedisConnectionError(error)) throw new QueueUnavailableError(operation, error);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  private queueFor(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.options.connection, prefix: this.prefix });
      queue.on('error', () => undefined);
      this.queues.set(name, queue);
    }
    return queue;
  }

  private queueEventsFor(name: QueueName): Promise<QueueEvents> {
    let events = this.queueEvents.get(name);
    if (!events) {
      // Its own blocking connection that waits through an outage: events resume where they stopped.
      const queueEvents = new QueueEvents(name, { connection: blockingOptionsOf(this.options.connection), prefix: this.prefix });
      // Connection errors during an outage are expected and reported by /health, not thrown.
      queueEvents.on('error', () => undefined);
      queueEvents.on('completed', ({ jobId, returnvalue }) => {
        const waiter = this.waiters.get(jobId);
        if (waiter) this.deliver(waiter, returnvalue);
      });
      queueEvents.on('failed', ({ jobId, failedReason }) => this.waiters.get(jobId)?.reject(new Error(failedReason)));
      events = queueEvents.waitUntilReady().then(() => queueEvents);
      // A failed first subscription (Redis down) is retried by the next caller.
      events.catch(() => {
        this.queueEvents.delete(name);
        void queueEvents.close().catch(() => undefined);
      });
      this.queueEvents.set(name, events);
    }
    return events;
  }
}

const TIMED_OUT = Symbol('timed-out');

/** ioredis' errors for a closed, unwritable or timed-out connection; a Lua or data error is not one of them. */
export function isRedisConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'MaxRetriesPerRequestError' ||
    /Stream isn't writeable|Connection is closed|Command timed out|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|enableOfflineQueue/i.test(error.message)
  );
}
