import { Redis } from 'ioredis';

/**
 * Opens the Redis connection BullMQ runs on. The database index in the URL path (`redis://host:6379/5`) is
 * honoured, so tests and several deployments can share one server.
 */
export function createRedisConnection(redisUrl: string): Redis {
  const url = new URL(redisUrl);
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new Error(`REDIS_URL must start with redis:// or rediss://, got ${url.protocol}//`);
  }
  const databaseIndex = url.pathname.length > 1 ? Number(url.pathname.slice(1)) : 0;
  if (!Number.isInteger(databaseIndex) || databaseIndex < 0) {
    throw new Error(`REDIS_URL has an invalid database index: ${url.pathname.slice(1)}`);
  }
  return new Redis(redisUrl, {
    db: databaseIndex,
    // BullMQ workers block on Redis; a per-command retry limit would turn a short outage into lost jobs.
    maxRetriesPerRequest: null,
    lazyConnect: false,
  });
}
