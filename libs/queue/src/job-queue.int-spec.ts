import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { CrawlJob, defineJob, QueueName } from '@sift/queue-contracts';
import { InvalidJobPayloadError } from './invalid-job-payload.error';
import { defineJobHandler } from './job-handler';
import { JobFailedError } from './job-failed.error';
import { JobQueue } from './job-queue';
import { JobTimeoutError } from './job-timeout.error';
import { createRedisConnection } from './redis-connection';
import { checkRedis } from './redis-health';
import { type RunningWorker, startWorker } from './start-worker';
import { type QueueUnderTest, startQueueUnderTest } from './testing/queue-under-test';

// Test-only jobs on the extract queue; the unique prefix keeps them away from every other test file.
const EchoJob = defineJob({
  name: 'echo',
  queue: QueueName.Extract,
  payloadSchema: z.object({ text: z.string(), times: z.number().int().min(1) }),
  resultSchema: z.object({ echoed: z.string() }),
});
const GatedJob = defineJob({
  name: 'gated',
  queue: QueueName.Extract,
  payloadSchema: z.object({ gate: z.string() }),
  resultSchema: z.object({ released: z.string() }),
});
/** What an older producer might send: the same job name with a looser schema. */
const OutdatedEchoJob = defineJob({ ...EchoJob, payloadSchema: z.object({ text: z.string() }) });

describe('JobQueue and startWorker (real Redis)', () => {
  const prefix = `test-queue-${randomUUID()}`;
  let connection: Redis;
  let jobQueue: JobQueue;
  let worker: RunningWorker;
  const echoCalls: string[] = [];
  const gates = new Map<string, () => void>();
  const gateOpened = new Map<string, Promise<void>>();

  function gate(name: string): { waitForStart: Promise<void>; release: () => void } {
    let started!: () => void;
    const waitForStart = new Promise<void>((resolve) => (started = resolve));
    gateOpened.set(name, waitForStart);
    gates.set(name, started);
    return { waitForStart, release: () => releaseGate.get(name)?.() };
  }
  const releaseGate = new Map<string, () => void>();

  const handlers = [
    defineJobHandler(EchoJob, async (payload) => {
      echoCalls.push(payload.text);
      return { echoed: payload.text.repeat(payload.times) };
    }),
    defineJobHandler(GatedJob, (payload) => {
      gates.get(payload.gate)?.();
      return new Promise((resolve) => releaseGate.set(payload.gate, () => resolve({ released: payload.gate })));
    }),
  ];

  let queueUnderTest: QueueUnderTest | undefined;

  beforeAll(async () => {
    queueUnderTest = await startQueueUnderTest({ prefix, queue: QueueName.Extract, handlers, definitions: [EchoJob, GatedJob], concurrency: 4 });
    ({ connection, jobQueue, worker } = queueUnderTest);
  });

  afterAll(() => queueUnderTest?.close());

  it('keeps a waited-for result only past its caller\'s deadline, a job that can be added again an hour', async () => {
    const jobs = new Queue(QueueName.Extract, { connection, prefix });
    try {
      const keptFor = async (jobId: string) => ((await jobs.getJob(jobId))?.opts.removeOnComplete as { age?: number } | undefined)?.age;
      const before = new Set((await jobs.getJobs(['completed'])).map((job) => job.id));
      await jobQueue.enqueueAndWait(EchoJob, { text: 'kept', times: 1 }, { timeoutMs: 10_000 });
      await jobQueue.enqueueAllAndWait(EchoJob, [{ text: 'kept in bulk', times: 1 }], { timeoutMs: 30_000 });
      const waited = (await jobs.getJobs(['completed'])).filter((job) => !before.has(job.id));
      // The caller's 10 or 30 seconds, and a minute more: nobody else knows these ids.
      expect(waited.map((job) => (job.opts.removeOnComplete as { age: number }).age).sort((a, b) => a - b)).toEqual([70, 90]);
      const chosenId = `chosen-${randomUUID()}`;
      await jobQueue.enqueueAndWait(EchoJob, { text: 'chosen', times: 1 }, { timeoutMs: 10_000, jobId: chosenId });
      expect(await keptFor(chosenId)).toBe(3_600);
      const added = await jobQueue.enqueue(EchoJob, { text: 'added', times: 1 });
      expect(await keptFor(added.id ?? '')).toBe(3_600);
    } finally {
      await jobs.close();
    }
  });

  it('round-trips a job: enqueue, handle, wait for the validated result', async () => {
    await expect(jobQueue.enqueueAndWait(EchoJob, { text: 'ab', times: 3 }, { timeoutMs: 10_000 })).resolves.toEqual({ echoed: 'ababab' });
    const metrics = await worker.metrics.text();
    expect(metrics).toMatch(/sift_jobs_completed_total\{queue="extract",job="echo"\} [1-9]/);
    expect(metrics).toMatch(/sift_job_duration_seconds_count\{queue="extract",job="echo"\} [1-9]/);
  });

  it('subscribes to queues ahead of the first wait: a subscription that is ready ends the wait for it', async () => {
    const early = new JobQueue({ connection, prefix });
    try {
      const startedAt = Date.now();
      await early.subscribe([QueueName.Extract, QueueName.Crawl], 30_000);
      expect(Date.now() - startedAt).toBeLessThan(10_000);
      await expect(early.enqueueAndWait(EchoJob, { text: 'early', times: 1 }, { timeoutMs: 10_000 })).resolves.toEqual({ echoed: 'early' });
    } finally {
      await early.close();
    }
  });

  it('hands a large result over through a key of its own: the event stream carries only its name', async () => {
    // Characters beyond Latin-1 and outside the Basic Multilingual Plane: the key holds the result's UTF-8 bytes.
    const text = 'page “é” 字 😀 ';
    const large = { text, times: 5_000 };
    const chosenId = `large-${randomUUID()}`;
    await expect(jobQueue.enqueueAndWait(EchoJob, large, { timeoutMs: 10_000, jobId: chosenId })).resolves.toEqual({ echoed: text.repeat(5_000) });
    const [bulkLarge, bulkSmall] = await jobQueue.enqueueAllAndWait(EchoJob, [large, { text: 'small', times: 2 }], { timeoutMs: 10_000 });
    expect(bulkLarge).toEqual({ status: 'fulfilled', value: { echoed: text.repeat(5_000) } });
    expect(bulkSmall).toEqual({ status: 'fulfilled', value: { echoed: 'smallsmall' } });
    // A caller that chose the id of a job already finished reads the result from the key too.
    await expect(jobQueue.enqueueAndWait(EchoJob, large, { timeoutMs: 10_000, jobId: chosenId })).resolves.toEqual({ echoed: text.repeat(5_000) });

    const events = await connection.xrange(`${prefix}:${QueueName.Extract}:events`, '-', '+');
    const returnValues = events.map(([, fields]) => fields[fields.indexOf('returnvalue') + 1] ?? '').filter((value) => value.includes('siftResultKey'));
    expect(returnValues.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...events.map(([, fields]) => fields.join('').length))).toBeLessThan(1_000);
    // Kept as long as the job: an hour for a chosen id, the caller's wait and a minute for the bulk's.
    expect(await connection.ttl(`${prefix}:${QueueName.Extract}:result:${chosenId}`)).toBeGreaterThan(3_500);
    const keys = await connection.keys(`${prefix}:${QueueName.Extract}:result:*`);
    const ttls = await Promise.all(keys.map((key) => connection.ttl(key)));
    expect(ttls.some((ttl) => ttl > 0 && ttl <= 70)).toBe(true);
  });

  it('rejects an invalid payload at the producer, before anything reaches Redis', async () => {
    const queue = new Queue(QueueName.Extract, { connection, prefix });
    const totalJobs = async (): Promise<number> => Object.values(await queue.getJobCounts()).reduce((sum, count) => sum + count, 0);
    try {
      const before = await totalJobs();
      await expect(jobQueue.enqueue(EchoJob, { text: 'x', times: 0 })).rejects.toBeInstanceOf(InvalidJobPayloadError);
      expect(await totalJobs()).toBe(before);
    } finally {
      await queue.close();
    }
  });

  it('re-validates at the worker: a payload from an outdated producer fails without reaching the handler', async () => {
    const callsBefore = echoCalls.length;
    const failure = jobQueue.enqueueAndWait(OutdatedEchoJob, { text: 'old' }, { timeoutMs: 10_000 });
    await expect(failure).rejects.toBeInstanceOf(JobFailedError);
    await expect(failure).rejects.toThrow(/Invalid payload for job echo: times/);
    expect(echoCalls.length).toBe(callsBefore);
    expect(await worker.metrics.text()).toMatch(/sift_jobs_failed_total\{queue="extract",job="echo"\} [1-9]/);
  });

  it('stops waiting after the timeout with a typed error', async () => {
    const slow = gate('slow');
    const waiting = jobQueue.enqueueAndWait(GatedJob, { gate: 'slow' }, { timeoutMs: 300 });
    await slow.waitForStart;
    const error = await waiting.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JobTimeoutError);
    expect((error as JobTimeoutError).timeoutMs).toBe(300);
    slow.release();
  });

  it('removes a job nobody picked up when the wait times out', async () => {
    // Nothing consumes the research queue under this prefix.
    const ResearchEcho = defineJob({ ...EchoJob, queue: QueueName.Research });
    const error = await jobQueue.enqueueAndWait(ResearchEcho, { text: 'x', times: 1 }, { timeoutMs: 200 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JobTimeoutError);
    const queue = new Queue(QueueName.Research, { connection, prefix });
    try {
      expect(await queue.getJob((error as JobTimeoutError).jobId)).toBeUndefined();
    } finally {
      await queue.close();
    }
  });

  it('enqueues many jobs in one call and settles each as enqueueAndWait would, in order', async () => {
    const settled = await jobQueue.enqueueAllAndWait(
      EchoJob,
      [
        { text: 'bulk-a', times: 2 },
        { text: 'bulk-invalid', times: 0 },
        { text: 'bulk-b', times: 1 },
      ],
      { timeoutMs: 10_000 },
    );
    expect(settled[0]).toEqual({ status: 'fulfilled', value: { echoed: 'bulk-abulk-a' } });
    expect(settled[1].status === 'rejected' && settled[1].reason).toBeInstanceOf(InvalidJobPayloadError);
    expect(settled[2]).toEqual({ status: 'fulfilled', value: { echoed: 'bulk-b' } });
    // The invalid payload never reached a worker.
    expect(echoCalls).toEqual(expect.arrayContaining(['bulk-a', 'bulk-b']));
    expect(echoCalls).not.toContain('bulk-invalid');
  });

  it('times out each job of a bulk on its own: a finished one keeps its result', async () => {
    const slow = gate('bulk-slow');
    const quick = gate('bulk-quick');
    const waiting = jobQueue.enqueueAllAndWait(GatedJob, [{ gate: 'bulk-slow' }, { gate: 'bulk-quick' }], { timeoutMs: 5_000 });
    await Promise.all([slow.waitForStart, quick.waitForStart]);
    quick.release();
    const [slowOutcome, quickOutcome] = await waiting;
    expect(slowOutcome.status === 'rejected' && slowOutcome.reason).toBeInstanceOf(JobTimeoutError);
    expect(quickOutcome).toEqual({ status: 'fulfilled', value: { released: 'bulk-quick' } });
    slow.release();
  });

  it('refuses to start with two handlers for one job', async () => {
    await expect(
      startWorker({ queue: QueueName.Extract, handlers: [...handlers, handlers[0]], definitions: [EchoJob, GatedJob], concurrency: 1, connection, prefix }),
    ).rejects.toThrow(/job "echo" has 2 handlers/);
  });

  it('refuses to start when a job of the queue has no handler (checked against the contracts catalogue)', async () => {
    const crawlOnly = defineJobHandler(CrawlJob, async (payload) => ({ baseUrl: payload.url, results: [], successfulPages: 0, failedPages: 0, partial: false }));
    await expect(startWorker({ queue: QueueName.Crawl, handlers: [crawlOnly], concurrency: 1, connection, prefix })).rejects.toThrow(
      /job "map" has no handler/,
    );
  });

  it('refuses a handler that belongs to another queue', async () => {
    await expect(startWorker({ queue: QueueName.Research, handlers, concurrency: 1, connection, prefix })).rejects.toThrow(
      /belongs to queue "extract"/,
    );
  });

  it('shuts down gracefully: a running job finishes and its result is delivered', async () => {
    const second = await startWorker({ queue: QueueName.Extract, handlers, definitions: [EchoJob, GatedJob], concurrency: 1, connection, prefix: `${prefix}-shutdown` });
    const shutdownQueue = new JobQueue({ connection, prefix: `${prefix}-shutdown` });
    try {
      const running = gate('shutdown');
      const result = shutdownQueue.enqueueAndWait(GatedJob, { gate: 'shutdown' }, { timeoutMs: 10_000 });
      await running.waitForStart;
      let closed = false;
      const closing = second.close().then(() => (closed = true));
      expect(closed).toBe(false);
      running.release();
      await expect(result).resolves.toEqual({ released: 'shutdown' });
      await closing;
      expect(closed).toBe(true);
    } finally {
      await shutdownQueue.close();
      const keys = await connection.keys(`${prefix}-shutdown:*`);
      if (keys.length > 0) await connection.del(...keys);
    }
  });
});

describe('createRedisConnection and checkRedis', () => {
  it('honours the database index of the URL', async () => {
    const key = `test-db-index-${randomUUID()}`;
    const inDatabaseSeven = createRedisConnection('redis://127.0.0.1:6379/7');
    const inDatabaseZero = createRedisConnection('redis://127.0.0.1:6379');
    try {
      await inDatabaseSeven.set(key, '1', 'EX', 60);
      expect(await inDatabaseSeven.get(key)).toBe('1');
      expect(await inDatabaseZero.get(key)).toBeNull();
    } finally {
      await inDatabaseSeven.del(key);
      await Promise.all([inDatabaseSeven.quit(), inDatabaseZero.quit()]);
    }
  });

  it('reports a reachable and an unreachable Redis', async () => {
    const healthy = createRedisConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/5');
    // A worker's connection (commands wait for Redis), whose disconnect ends at once: ioredis gives the socket of a
    // connection that is between retries `disconnectTimeout` (2 s by default) to close, and that socket closed long
    // ago, so its timer would outlive the test and keep Jest's worker from exiting.
    const unreachable = new Redis('redis://127.0.0.1:1/0', { maxRetriesPerRequest: null, disconnectTimeout: 0 });
    unreachable.on('error', () => undefined);
    try {
      await expect(checkRedis(healthy)).resolves.toMatchObject({ ok: true });
      const down = await checkRedis(unreachable, 200);
      expect(down.ok).toBe(false);
      expect(down.error).toMatch(/did not answer/);
    } finally {
      await healthy.quit();
      unreachable.disconnect();
    }
  });
});
