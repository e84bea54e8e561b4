import { randomUUID } from 'node:crypto';
import { get as httpGet } from 'node:http';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { QueueName } from '@sift/queue-contracts';
import { readUntil } from '@sift/testing';
import { JobQueue } from './job-queue';
import { createRedisConnection } from './redis-connection';
import { SleeperJob } from './testing/sleeper-job';
import { type SleeperProcess, startSleeperWorker } from './testing/sleeper-process';

jest.setTimeout(90_000);

/** How long the job holds the worker's event loop: past the 5 s after which a block counts and a consumer goes silent. */
const FREEZE_MS = 12_000;
/** How long the worker under test keeps reporting a block once it ended (30 s in production). */
const REPORT_FOR_MS = 4_000;

interface WorkerHealthBody {
  status: string;
  eventLoop?: { ok: boolean; blockedMs?: number; endedSecondsAgo?: number; error?: string };
}

/** One probe on a connection of its own, as a kubelet's: a kept-alive one would be closed by the server's idle timer right after a freeze. */
function get(port: number, path: string, timeoutMs?: number): Promise<{ status: number; body: WorkerHealthBody }> {
  return new Promise((resolve, reject) => {
    const request = httpGet({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as WorkerHealthBody }));
      response.on('error', reject);
    });
    request.on('error', reject);
    if (timeoutMs !== undefined) request.setTimeout(timeoutMs, () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
  });
}

// A job that holds its worker's event loop (a backtracking `pattern`, say) silences the worker's health port while it
// runs, and its connections stay open: the worker must stop counting as responsive and say why once it answers again.
describe('a worker whose job blocks its event loop', () => {
  const prefix = `test-stuck-${randomUUID()}`;
  let connection: Redis;
  let jobQueue: JobQueue;
  let worker: SleeperProcess;
  let healthPort: number;

  beforeAll(async () => {
    connection = createRedisConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/5');
    jobQueue = new JobQueue({ connection, prefix });
    // A lock longer than the freeze: the job is not taken back meanwhile, so it runs once.
    worker = await startSleeperWorker({ QUEUE_PREFIX: prefix, QUEUE_LOCK_DURATION_MS: '60000', EVENT_LOOP_REPORT_FOR_MS: String(REPORT_FOR_MS) });
    healthPort = Number(/"port":(\d+)/.exec(worker.output())?.[1]);
  });

  afterAll(async () => {
    await worker?.kill();
    const queue = new Queue(SleeperJob.queue, { connection, prefix });
    await queue.obliterate({ force: true }).catch(() => undefined);
    await Promise.all([queue.close(), jobQueue?.close()]);
    await connection?.quit();
  });

  const extractConsumers = async () => (await jobQueue.consumers([QueueName.Extract]))[0];

  it('stops counting as responsive while frozen, answers 503 with the reason after it, then recovers', async () => {
    expect(await get(healthPort, '/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await extractConsumers()).toMatchObject({ queue: 'extract', consumers: 1 });

    await jobQueue.enqueue(SleeperJob, { id: 'freeze', ms: FREEZE_MS, busy: true });
    await worker.waitFor(/"job started".*"freeze"/);

    // Frozen: the port does not answer; this probe is answered in the loop's first turn after the freeze.
    const probeDuringFreeze = get(healthPort, '/health');
    await expect(get(healthPort, '/live', 2_000)).rejects.toThrow();
    // Still connected, but silent.
    expect(await readUntil(extractConsumers, (counts) => counts.responsive === 0, FREEZE_MS)).toEqual({ queue: 'extract', consumers: 1, responsive: 0 });
    expect(worker.output()).not.toMatch(/"job finished".*"freeze"/);

    const afterFreeze = await probeDuringFreeze;
    expect(afterFreeze.status).toBe(503);
    expect(afterFreeze.body.status).toBe('error');
    expect(afterFreeze.body.eventLoop).toMatchObject({ ok: false, error: expect.stringMatching(/event loop was blocked for \d+\.\d s/) });
    expect(afterFreeze.body.eventLoop?.blockedMs).toBeGreaterThanOrEqual(5_000);
    await worker.waitFor(/"job finished".*"freeze"/);
    expect(worker.output()).toMatch(/"the event loop was blocked[^"]*".*"blockedMs":\d{4,}/);

    // Alive again (liveness) while readiness still reports the recent block.
    expect((await get(healthPort, '/live', 5_000)).status).toBe(200);
    expect(await get(healthPort, '/health', 5_000)).toMatchObject({ status: 503, body: { eventLoop: { ok: false } } });

    // Once the block is older than the report window and the beats are back, everything is ok again.
    expect(await readUntil(() => get(healthPort, '/health', 5_000), (answer) => answer.status === 200, REPORT_FOR_MS + 10_000)).toMatchObject({ body: { status: 'ok', eventLoop: { ok: true } } });
    expect(await readUntil(extractConsumers, (counts) => counts.responsive === 1, 10_000)).toEqual({ queue: 'extract', consumers: 1, responsive: 1 });
  });
});
