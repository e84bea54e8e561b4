import { type OwnRedisServer, readUntil, startOwnRedisServer } from '@sift/testing';
import type { Redis } from 'ioredis';
import { closeRedisConnection, createRedisConnection, waitForRedis } from './redis-connection';

jest.setTimeout(30_000);

/** Resolves once the connection's status is `status`, or fails the test after 10 s. */
async function statusReached(connection: Redis, status: string): Promise<void> {
  await readUntil(async () => connection.status, (current) => current === status, 10_000, 20);
}

// Against a Redis of this test's own, which it stops and starts again (the shared one is never stopped).
describe('closeRedisConnection', () => {
  let redis: OwnRedisServer;
  /** The test's connection until the test has closed it itself. */
  let open: Redis | undefined;

  beforeEach(async () => {
    redis = await startOwnRedisServer();
  });

  afterEach(() => {
    open?.disconnect();
    open = undefined;
    redis.stop();
  });

  it('quits a connection whose Redis answers', async () => {
    const connection = (open = createRedisConnection(redis.url, { failFast: true }));
    expect(await waitForRedis(connection, 5_000)).toBe(true);
    await closeRedisConnection(connection);
    open = undefined;
    await statusReached(connection, 'end');
  });

  it('leaves a fail-fast connection closed, not reconnecting, when its Redis is down', async () => {
    const connection = (open = createRedisConnection(redis.url, { failFast: true }));
    expect(await waitForRedis(connection, 5_000)).toBe(true);
    redis.stop();
    await statusReached(connection, 'reconnecting');
    // QUIT alone is refused here (nothing is queued offline), and the connection would go on reconnecting.
    await expect(connection.quit()).rejects.toThrow("Stream isn't writeable");
    await closeRedisConnection(connection);
    open = undefined;
    // Redis back: a connection still reconnecting would be ready again within its retry (1 s at most). The wait also
    // outlasts the 2 s ioredis gives a closed socket before it destroys it.
    redis.start();
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(connection.status).not.toBe('ready');
  });
});
