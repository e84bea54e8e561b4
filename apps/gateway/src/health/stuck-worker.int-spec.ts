import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { z } from 'zod';
import { createRedisConnection, defineJobHandler, JobQueue, type RunningWorker, startWorker } from '@sift/queue';
import { defineJob, QueueName } from '@sift/queue-contracts';
import { callGateway, readUntil } from '@sift/testing';
import { startTestGateway, type TestGateway } from '../testing/gateway-harness';
import { type AppProcess, startAppProcess } from '../testing/app-process';

jest.setTimeout(120_000);

interface HealthBody {
  status: string;
  queues: Record<string, { consumers: number; responsive: number }> | null;
}

/** How long the job holds the worker's event loop: well past the 5 s after which a consumer counts as silent. */
const FREEZE_MS = 12_000;

/** The job of the queue library's test worker (libs/queue/src/testing/sleeper-worker.main.ts): with `busy` it spins for `ms`. */
const SleeperJob = defineJob({
  name: 'sleeper',
  queue: QueueName.Extract,
  payloadSchema: z.object({ id: z.string(), ms: z.number().int(), busy: z.boolean().optional() }),
  resultSchema: z.object({ id: z.string() }),
});

// A job that holds its worker's event loop leaves the worker's connections open: counted only as connected, the
// worker would make the gateway's /health say "ok" while every other job of its queue waits.
describe('GET /health while the only worker of a queue is stuck in a job', () => {
  const prefix = `test-stuck-health-${randomUUID()}`;
  const connection = createRedisConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/5');
  const jobQueue = new JobQueue({ connection, prefix });
  const workers: RunningWorker[] = [];
  let gateway: TestGateway;
  let stuckWorker: AppProcess;

  beforeAll(async () => {
    gateway = await startTestGateway({ QUEUE_PREFIX: prefix });
    // The other two queues are staffed in this process, so the stuck one is all that keeps /health from "ok".
    for (const queue of [QueueName.Crawl, QueueName.Research]) {
      const probe = defineJob({ name: `probe-${queue}`, queue, payloadSchema: z.object({}), resultSchema: z.object({}) });
      workers.push(await startWorker({ queue, definitions: [probe], handlers: [defineJobHandler(probe, async () => ({}))], concurrency: 1, connection, prefix }));
    }
    // A lock longer than the freeze: the job is not taken back meanwhile, so it runs once.
    stuckWorker = await startAppProcess('libs/queue/src/testing/sleeper-worker.main.ts', { QUEUE_PREFIX: prefix, QUEUE_LOCK_DURATION_MS: '60000', SIFT_LOG_LEVEL: 'log' }, /worker started/);
  });

  afterAll(async () => {
    await stuckWorker?.kill();
    await Promise.all(workers.map((worker) => worker.close()));
    const queue = new Queue(QueueName.Extract, { connection, prefix });
    await queue.obliterate({ force: true }).catch(() => undefined);
    await Promise.all([queue.close(), jobQueue.close(), gateway?.close()]);
    await connection.quit();
  });

  const health = async () => {
    const startedAt = Date.now();
    const answer = await callGateway<HealthBody>(gateway.baseUrl, 'GET', '/health');
    return { ...answer, elapsedMs: Date.now() - startedAt };
  };

  it('is "degraded" (200) with the queue\'s consumer connected but not responsive, and "ok" again once the job ends', async () => {
    const staffed = await readUntil(health, (answer) => answer.body.status === 'ok', 10_000);
    expect(staffed.body.queues?.extract).toMatchObject({ consumers: 1 });

    await jobQueue.enqueue(SleeperJob, { id: 'freeze', ms: FREEZE_MS, busy: true });
    await readUntil(async () => stuckWorker.output(), (output) => /"job started".*"freeze"/.test(output), 10_000);

    const stuck = await readUntil(health, (answer) => answer.body.status !== 'ok', FREEZE_MS);
    expect(stuckWorker.output()).not.toMatch(/"job finished".*"freeze"/);
    expect(stuck.status).toBe(200);
    expect(stuck.body).toEqual({
      status: 'degraded',
      postgres: 'ok',
      redis: 'ok',
      queues: { extract: { consumers: 1, responsive: 0 }, crawl: { consumers: 1, responsive: 1 }, research: { consumers: 1, responsive: 1 } },
    });
    // Generous for a busy machine; the checks themselves are bounded by one second.
    expect(stuck.elapsedMs).toBeLessThan(3_000);

    await readUntil(async () => stuckWorker.output(), (output) => /"job finished".*"freeze"/.test(output), FREEZE_MS + 10_000);
    const recovered = await readUntil(health, (answer) => answer.body.status === 'ok', 10_000);
    expect(recovered.body.queues?.extract).toEqual({ consumers: 1, responsive: 1 });
  });
});
