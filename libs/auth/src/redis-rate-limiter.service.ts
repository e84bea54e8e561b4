import type { Redis } from 'ioredis';
import type { RateLimitBucket } from './rate-limits';

export interface RateLimitDecision {
  allowed: boolean;
  remaining: number;
  /** Seconds until the window resets; what the 429 response puts in Retry-After. 0 when allowed. */
  retryAfterSeconds: number;
}

/**
 * Fixed-window counter: INCR the window's key, start its expiry on the first hit, read the time left. One
 * Lua script makes the three steps atomic, so concurrent gateway replicas never both see "one left".
 */
const CONSUME_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

const CONSUME_COMMAND = 'siftConsumeRateWindow';

type RedisWithConsume = Redis & { [CONSUME_COMMAND](key: string, windowMilliseconds: string): Promise<[number, number]> };

export class RedisRateLimiter {
  private readonly redis: RedisWithConsume;

  constructor(
    redis: Redis,
    private readonly keyPrefix = 'sift:rate:',
  ) {
    // A defined command is sent as EVALSHA (the script's hash, not its text, on every request); ioredis loads the
    // script again by itself when the server answers NOSCRIPT (after a restart or SCRIPT FLUSH).
    redis.defineCommand(CONSUME_COMMAND, { numberOfKeys: 1, lua: CONSUME_SCRIPT });
    this.redis = redis as RedisWithConsume;
  }

  async consume(bucketKey: string, limit: number, windowSeconds: number): Promise<RateLimitDecision> {
    const [count, ttlMilliseconds] = await this.redis[CONSUME_COMMAND](this.keyPrefix + bucketKey, String(windowSeconds * 1000));
    if (count <= limit) return { allowed: true, remaining: limit - count, retryAfterSeconds: 0 };
    return { allowed: false, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil(ttlMilliseconds / 1000)) };
  }

  /** Counts the request against every bucket; refused when any bucket is over, with the longest wait. */
  async consumeAll(buckets: RateLimitBucket[]): Promise<RateLimitDecision> {
    const decisions = await Promise.all(
      buckets.map((bucket) => this.consume(bucket.bucketKey, bucket.limit, bucket.windowSeconds)),
    );
    const refused = decisions.filter((decision) => !decision.allowed);
    if (refused.length > 0) {
      return { allowed: false, remaining: 0, retryAfterSeconds: Math.max(...refused.map((d) => d.retryAfterSeconds)) };
    }
    return { allowed: true, remaining: Math.min(...decisions.map((d) => d.remaining)), retryAfterSeconds: 0 };
  }
}
