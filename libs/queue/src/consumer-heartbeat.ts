import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { QueueName } from '@sift/queue-contracts';

export interface ConsumerHeartbeatTiming {
  /** How often a consumer beats, from its event loop. */
  intervalMs: number;
  /** A consumer whose last beat is older than this is not responsive (its event loop is blocked, or it is gone). */
  silentAfterMs: number;
}

export const CONSUMER_HEARTBEAT: ConsumerHeartbeatTiming = { intervalMs: 1_000, silentAfterMs: 5_000 };

/** Beats older than this are dropped, and the set itself expires this long after the last beat of any consumer. */
const KEEP_BEATS_MS = 60_000;
/** The longest a stopping consumer waits to remove its beat. */
const STOP_TIMEOUT_MS = 1_000;

/**
 * Every consumer's last beat per queue, in a sorted set scored with Redis' own clock (TIME), so the gateway and
 * workers on machines whose clocks differ compare the same times.
 */
function heartbeatKey(prefix: string, queue: QueueName): string {
  return `${prefix}:consumer-heartbeats:${queue}`;
}

const BEAT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return now`;

const BEATING_SINCE = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local beating = {}
for index, key in ipairs(KEYS) do
  beating[index] = redis.call('ZRANGEBYSCORE', key, now - tonumber(ARGV[1]), '+inf')
end
return beating`;

/**
 * A consumer's name, unique per worker: the BullMQ worker carries it in its connection name (CLIENT LIST) and
 * in each job's processedBy, and its heartbeat uses it as its member, so the two views can be joined.
 */
export function newConsumerName(): string {
  return `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** The consumer name in a BullMQ worker's connection name (`<prefix>:<queue>:w:<name>`); undefined for a worker without one. */
export function consumerNameOf(connectionName: string | undefined): string | undefined {
  if (connectionName === undefined) return undefined;
  const marker = connectionName.indexOf(':w:');
  return marker < 0 ? undefined : connectionName.slice(marker + ':w:'.length);
}

export interface ConsumerHeartbeat {
  /** Stops beating and removes the consumer's beat, so it stops counting at once. */
  stop(): Promise<void>;
}

/**
 * Beats every CONSUMER_HEARTBEAT.intervalMs from the consumer's event loop: while a synchronous job blocks the loop
 * the beats stop, although the process and its Redis connections stay up (CLIENT LIST still counts it as a consumer).
 */
export function startConsumerHeartbeat(connection: Redis, options: { prefix: string; queue: QueueName; consumer: string }): ConsumerHeartbeat {
  const key = heartbeatKey(options.prefix, options.queue);
  let inFlight: Promise<unknown> | undefined;
  const beat = (): void => {
    // While Redis is away a beat waits in the connection's queue; one is enough, the rest would pile up behind it.
    if (inFlight) return;
    inFlight = connection
      .eval(BEAT, 1, key, options.consumer, KEEP_BEATS_MS)
      .catch(() => undefined)
      .finally(() => (inFlight = undefined));
  };
  beat();
  const timer = setInterval(beat, CONSUMER_HEARTBEAT.intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      // Best effort: without it the beat ages out within silentAfterMs. A worker stopping during a Redis outage
      // must not wait for Redis to come back (its connection retries commands forever).
      if (connection.status !== 'ready') return;
      let timeout: NodeJS.Timeout | undefined;
      await Promise.race([
        connection.zrem(key, options.consumer).catch(() => undefined),
        new Promise((resolve) => (timeout = setTimeout(resolve, STOP_TIMEOUT_MS))),
      ]).finally(() => clearTimeout(timeout));
    },
  };
}

/** The consumers of each queue that beat within the last `silentAfterMs`, by name, read in one round trip. */
export async function beatingConsumers(connection: Redis, prefix: string, queues: readonly QueueName[], silentAfterMs: number): Promise<Map<QueueName, Set<string>>> {
  if (queues.length === 0) return new Map();
  const keys = queues.map((queue) => heartbeatKey(prefix, queue));
  const beating = (await connection.eval(BEATING_SINCE, keys.length, ...keys, silentAfterMs)) as string[][];
  return new Map(queues.map((queue, index) => [queue, new Set(beating[index] ?? [])]));
}
