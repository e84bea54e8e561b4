import { randomUUID } from 'node:crypto';
import { QueueName } from '@sift/queue-contracts';
import { readUntil } from '@sift/testing';
import { JobQueue } from './job-queue';
import { createRedisConnection } from './redis-connection';
import { type SleeperProcess, startSleeperWorker } from './testing/sleeper-process';

jest.setTimeout(60_000);

/** The same Redis server, one database further: as a second Sift on the machine would use it (REDIS_URL …/N+1). */
function otherDatabaseOf(redisUrl: string): string {
  const url = new URL(redisUrl);
  const database = Number(url.pathname.slice(1) || '0');
  url.pathname = `/${(database + 1) % 16}`;
  return url.toString();
}

// Two deployments on one Redis server, on different databases, with the same queue prefix (both the default): each
// one's /health must count only its own workers. BullMQ reads consumers from CLIENT LIST, which spans every database.
describe('queue consumers of one deployment', () => {
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/5';
  const prefix = `test-consumers-${randomUUID()}`;
  const connections = [createRedisConnection(redisUrl), createRedisConnection(otherDatabaseOf(redisUrl))];
  const own = new JobQueue({ connection: connections[0], prefix });
  const other = new JobQueue({ connection: connections[1], prefix });
  let worker: SleeperProcess;

  beforeAll(async () => {
    worker = await startSleeperWorker({ QUEUE_PREFIX: prefix, REDIS_URL: redisUrl });
  });

  afterAll(async () => {
    await worker?.kill();
    await Promise.all([own.close(), other.close()]);
    await Promise.all(connections.map((connection) => connection.quit()));
  });

  it("counts the workers on its own Redis database only, not another deployment's with the same prefix", async () => {
    expect(await readUntil(async () => (await own.consumers([QueueName.Extract]))[0], (count) => count.consumers === 1, 10_000)).toEqual({
      queue: 'extract',
      consumers: 1,
      responsive: 1,
    });
    expect(await other.consumers([QueueName.Extract])).toEqual([{ queue: 'extract', consumers: 0, responsive: 0 }]);
  });
});
