import { Redis, type RedisOptions } from 'ioredis';

export interface RedisConnectionOptions {
  /**
   * For request paths (gateway, rate limits, health): a command fails at once while Redis is unreachable
   * instead of waiting in ioredis' offline queue, and within `commandTimeoutMs` when the server stops
   * answering, so a caller gets a 503 in seconds rather than a request that hangs until Redis returns.
   * Workers keep the default (wait and retry through an outage): they block on Redis by design.
   */
  failFast?: boolean;
  commandTimeoutMs?: number;
}

/** How long a fail-fast command may wait for Redis before the request answers 503. */
export const FAIL_FAST_COMMAND_TIMEOUT_MS = 1_500;

/**
 * Opens the Redis connection BullMQ runs on. The database index in the URL path (`redis://host:6379/5`) is
 * honoured, so tests and several deployments can share one server.
 */
export function createRedisConnection(redisUrl: string, options: RedisConnectionOptions = {}): Redis {
  const url = new URL(redisUrl);
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new Error(`REDIS_URL must start with redis:// or rediss://, got ${url.protocol}//`);
  }
  const databaseIndex = url.pathname.length > 1 ? Number(url.pathname.slice(1)) : 0;
  if (!Number.isInteger(databaseIndex) || databaseIndex < 0) {
    throw new Error(`REDIS_URL has an invalid database index: ${url.pathname.slice(1)}`);
  }
  const behaviour: RedisOptions = options.failFast
    ? {
        maxRetriesPerRequest: 0,
        enableOfflineQueue: false,
        commandTimeout: options.commandTimeoutMs ?? FAIL_FAST_COMMAND_TIMEOUT_MS,
        connectTimeout: 2_000,
        // Reconnect quickly and forever: recovery after an outage needs no restart.
        retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
      }
    : {
        // BullMQ workers block on Redis; a per-command retry limit would turn a short outage into lost jobs.
        maxRetriesPerRequest: null,
        retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
      };
  return new Redis(redisUrl, { db: databaseIndex, lazyConnect: false, ...behaviour });
}

/**
 * Closes a connection for good, as every process's shutdown does: QUIT while Redis answers (replies still pending are
 * read first), else at once. While Redis is down, a fail-fast connection refuses QUIT (it queues nothing offline) and
 * would go on reconnecting, its timer keeping the process alive, and a worker's connection would hold QUIT in its
 * offline queue behind any command still there until Redis returned; a connection closed here does neither.
 */
export async function closeRedisConnection(connection: Redis): Promise<void> {
  if (connection.status === 'ready') {
    try {
      await connection.quit();
      return;
    } catch {
      // Redis went away during the QUIT: close the socket instead.
    }
  }
  connection.disconnect();
}

/** Resolves once the connection is ready, or after `timeoutMs` (a process may start while Redis is down). */
export async function waitForRedis(connection: Redis, timeoutMs: number): Promise<boolean> {
  if (connection.status === 'ready') return true;
  let timer: NodeJS.Timeout | undefined;
  let onReady: (() => void) | undefined;
  try {
    return await new Promise<boolean>((resolve) => {
      onReady = () => resolve(true);
      connection.once('ready', onReady);
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
  } finally {
    clearTimeout(timer);
    if (onReady) connection.removeListener('ready', onReady);
  }
}

/** The options of a connection, for a dedicated blocking connection (BullMQ's QueueEvents) to the same server. */
export function blockingOptionsOf(connection: Redis): RedisOptions {
  const { commandTimeout: _commandTimeout, ...options } = connection.options;
  return { ...options, maxRetriesPerRequest: null, enableOfflineQueue: true, retryStrategy: (attempt) => Math.min(attempt * 100, 2_000) };
}
