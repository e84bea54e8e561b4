import { randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { JobQueue } from './job-queue';
import { JobTimeoutError } from './job-timeout.error';
import { defineJobHandler } from './job-handler';
import { createRedisConnection } from './redis-connection';
import { type RunningWorker, startWorker } from './start-worker';
import { SleeperJob } from './testing/sleeper-job';
import { type SleeperProcess, startSleeperWorker } from './testing/sleeper-process';

jest.setTimeout(60_000);

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/5';

async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const startedAt = Date.now();
  while (!(await condition())) {
    if (Date.now() - startedAt > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Issue 16 item 8: jobs carry their deadline and are not started after it; a killed worker's job comes back
// within seconds; a job that stalls twice (a poison job) is failed, never handed to worker after worker.
describe('job deadlines and stalled jobs (real Redis, worker processes)', () => {
  let connection: Redis;

  beforeAll(() => {
    connection = createRedisConnection(redisUrl);
  });
  afterAll(async () => {
    await connection.quit();
  });

  describe('a job whose caller stopped waiting', () => {
    const prefix = `test-expiry-${randomUUID()}`;
    let jobQueue: JobQueue;
    let worker: RunningWorker;
    const ran: string[] = [];

    beforeAll(async () => {
      jobQueue = new JobQueue({ connection, prefix });
      worker = await startWorker({
        queue: SleeperJob.queue,
        definitions: [SleeperJob],
        handlers: [defineJobHandler(SleeperJob, async (payload) => (ran.push(payload.id), { id: payload.id }))],
        concurrency: 1,
        connection,
        prefix,
      });
    });
    afterAll(async () => {
      await worker.close();
      await jobQueue.close();
    });

    it('is failed without running once its deadline has passed', async () => {
      const job = await jobQueue.enqueue(SleeperJob, { id: 'expired', ms: 0 }, { deadlineAt: Date.now() - 1 });
      await until(async () => (await job.getState()) === 'failed', 10_000);
      const failed = await new Queue(SleeperJob.queue, { connection, prefix }).getJob(job.id ?? '');
      expect(failed?.failedReason).toMatch(/expired .* before a worker could start it/);
      expect(ran).not.toContain('expired');
    });

    it('reads as a timeout to whoever waits for it, not as a failed job (a crawl answers partial, not 503)', async () => {
      // The worker's expiry and the waiter's own timer fall due together; here the expiry is known first.
      const job = await jobQueue.enqueue(SleeperJob, { id: 'expired-waited', ms: 0 }, { jobId: `expired-${randomUUID()}`, deadlineAt: Date.now() - 1 });
      await until(async () => (await job.getState()) === 'failed', 10_000);
      const waited = jobQueue.enqueueAndWait(SleeperJob, { id: 'expired-waited', ms: 0 }, { jobId: job.id, timeoutMs: 30_000 });
      await expect(waited).rejects.toBeInstanceOf(JobTimeoutError);
      expect(ran).not.toContain('expired-waited');
    });

    it('is enqueued on a fail-fast connection that is still opening (a process that just started)', async () => {
      const opening = createRedisConnection(redisUrl, { failFast: true });
      const freshQueue = new JobQueue({ connection: opening, prefix });
      try {
        expect(opening.status).not.toBe('ready');
        await expect(freshQueue.enqueueAndWait(SleeperJob, { id: 'fresh', ms: 0 }, { timeoutMs: 5_000 })).resolves.toEqual({ id: 'fresh' });
      } finally {
        await freshQueue.close();
        await opening.quit();
      }
    });

    it('runs while its deadline is ahead, and enqueueAndWait gives the deadline to the job', async () => {
      await expect(jobQueue.enqueueAndWait(SleeperJob, { id: 'in-time', ms: 0 }, { timeoutMs: 5_000 })).resolves.toEqual({ id: 'in-time' });
      expect(ran).toContain('in-time');
    });
  });

  describe('a worker killed while it runs a job', () => {
    const prefix = `test-stalls-${randomUUID()}`;
    const env = { REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, QUEUE_LOCK_DURATION_MS: '1500', QUEUE_STALLED_INTERVAL_MS: '500' };
    const workers: SleeperProcess[] = [];
    let queue: Queue;

    beforeAll(() => {
      queue = new Queue(SleeperJob.queue, { connection, prefix });
    });
    afterAll(async () => {
      await Promise.all(workers.map((worker) => worker.kill()));
      await queue.close();
    });

    it('hands the job to another worker within seconds once, and fails it when it stalls a second time', async () => {
      const first = await startSleeperWorker(env);
      workers.push(first);
      const poison = await new JobQueue({ connection, prefix }).enqueue(SleeperJob, { id: 'poison', ms: 600_000 });
      await first.waitFor(/"job started".*"poison"/);
      const spares = await Promise.all([startSleeperWorker(env), startSleeperWorker(env)]);
      workers.push(...spares);

      const killedAt = Date.now();
      await first.kill();
      await until(async () => spares.some((spare) => /"job started".*"poison"/.test(spare.output())), 10_000);
      // lockDuration 1.5 s + stalledInterval 0.5 s, plus scheduling: was 30–65 s with BullMQ's defaults.
      expect(Date.now() - killedAt).toBeLessThan(6_000);

      const second = spares.find((spare) => /"job started".*"poison"/.test(spare.output())) as SleeperProcess;
      const last = spares.find((spare) => spare !== second) as SleeperProcess;
      await second.kill();
      await until(async () => (await poison.getState()) === 'failed', 10_000);
      const failed = await queue.getJob(poison.id ?? '');
      expect(failed?.failedReason).toMatch(/stalled/i);
      // Given time to pick it up, the last worker never ran it.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(last.output()).not.toMatch(/"job started".*"poison"/);
    });
  });
});

// Issue 16 item 11: BullMQ's waitUntilFinished adds a listener per waiting job to the queue, past Node's limit of 10.
describe('many callers waiting on one queue', () => {
  it('wait without a MaxListenersExceededWarning', async () => {
    const prefix = `test-listeners-${randomUUID()}`;
    const connection = createRedisConnection(redisUrl);
    const jobQueue = new JobQueue({ connection, prefix });
    const worker = await startWorker({
      queue: SleeperJob.queue,
      definitions: [SleeperJob],
      handlers: [defineJobHandler(SleeperJob, async (payload) => ({ id: payload.id }))],
      concurrency: 10,
      connection,
      prefix,
    });
    // Jest's sandboxed `process` does not see Node's own warnings, so the test looks at the emitters themselves:
    // while 30 callers wait, no event of the queue's emitters may have more than Node's default of 10 listeners.
    const internals = jobQueue as unknown as { queues: Map<string, EventEmitter>; queueEvents: Map<string, Promise<EventEmitter>> };
    const mostListeners = async (): Promise<number> => {
      const emitters = [...internals.queues.values(), ...(await Promise.all(internals.queueEvents.values()))];
      return Math.max(0, ...emitters.flatMap((emitter) => emitter.eventNames().map((name) => emitter.listenerCount(name))));
    };
    try {
      const ids = Array.from({ length: 30 }, (_value, index) => `caller-${index}`);
      const waiting = Promise.all(ids.map((id) => jobQueue.enqueueAndWait(SleeperJob, { id, ms: 300 }, { timeoutMs: 20_000 })));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await mostListeners()).toBeLessThanOrEqual(10);
      expect((await waiting).map((result) => result.id)).toEqual(ids);
    } finally {
      await worker.close();
      await jobQueue.close();
      await connection.quit();
    }
  });
});
