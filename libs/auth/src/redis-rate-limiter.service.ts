import type { Redis } from 'ioredis';
import type { RateLimitBucket } from './rate-limits';

export interface RateLimitDecision {
  allowed: boolean;
  remaining: number;
  /** Seconds until the window resets; what the 429 response puts in Retry-After. 0 when allowed. */
  retryAfterSeconds: number;
}

/**
 * Fixed-window counter: INCRBY the window's key by the tokens taken, start its expiry on the first hit, read the
 * time left. One Lua script makes the three steps atomic, so concurrent gateway replicas never both see "one left".
 */
const CONSUME_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
if count == tonumber(ARGV[2]) then
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

type RedisWithConsume = Redis & { [CONSUME_COMMAND](key: string, windowMilliseconds: string, tokens: string): Promise<[number, number]> };

/**
 * Tokens one round trip takes from a window: a hundredth of the limit, at most 50, so a busy key costs one Redis
 * call per that many requests instead of one per request. Below 200 requests per window it is 1: exact counting.
 * The price: tokens a gateway leased but did not use by the window's end are spent (at most a hundredth of the
 * limit per gateway per window), so a key may be refused that much early, never served more than its limit.
 */
export function leaseSize(limit: number): number {
  return Math.min(50, Math.max(1, Math.floor(limit / 100)));
}

interface Lease {
  tokens: number;
  expiresAt: number;
  /** What the window had left beyond this lease when it was taken. */
  remainingBeyond: number;
  /** The window refused a lease: nothing is left until it resets (a fixed window never refills early). */
  refusedUntil: number;
  /** The round trip taking the next lease, which concurrent requests for the key wait for instead of their own. */
  pending: Promise<RateLimitDecision> | null;
}

function allowed(remaining: number): RateLimitDecision {
  return { allowed: true, remaining, retryAfterSeconds: 0 };
}

function refused(ttlMilliseconds: number): RateLimitDecision {
  return { allowed: false, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil(ttlMilliseconds / 1000)) };
}

/** Leases kept per process: at this size the expired ones are swept, then the oldest forgotten if need be. */
const MAXIMUM_LEASES = 10_000;

export class RedisRateLimiter {
  private readonly redis: RedisWithConsume;
  private readonly leases = new Map<string, Lease>();

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
    const key = this.keyPrefix + bucketKey;
    // Exact counting: every request is its own round trip, so none waits for another's.
    if (leaseSize(limit) === 1) {
      const taken = await this.takeTokens(key, 1, limit, windowSeconds);
      return taken.granted > 0 ? allowed(taken.remainingBeyond) : refused(taken.ttlMilliseconds);
    }
    for (;;) {
      const lease = this.leaseOf(key);
      const now = Date.now();
      // A burst on a spent window is refused here, without a round trip per request.
      if (now < lease.refusedUntil) return refused(lease.refusedUntil - now);
      if (lease.tokens > 0 && now < lease.expiresAt) {
        lease.tokens -= 1;
        return allowed(lease.remainingBeyond + lease.tokens);
      }
      if (!lease.pending) {
        lease.pending = this.takeLease(key, lease, limit, windowSeconds).finally(() => (lease.pending = null));
        return lease.pending;
      }
      // Another request is taking a lease for this key: wait for it, then share what it leased.
      await lease.pending.catch(() => undefined);
    }
  }

  /** One round trip: this request's token plus the lease; refused when the window has none left. */
  private async takeLease(key: string, lease: Lease, limit: number, windowSeconds: number): Promise<RateLimitDecision> {
    const taken = await this.takeTokens(key, leaseSize(limit), limit, windowSeconds);
    if (taken.granted <= 0) {
      lease.refusedUntil = Date.now() + taken.ttlMilliseconds;
      return refused(taken.ttlMilliseconds);
    }
    lease.tokens = taken.granted - 1;
    lease.expiresAt = Date.now() + taken.ttlMilliseconds;
    lease.remainingBeyond = taken.remainingBeyond;
    return allowed(lease.remainingBeyond + lease.tokens);
  }

  /** Takes up to `size` tokens from the window in one atomic step: how many it got, what the window has left beyond them, and its time left. */
  private async takeTokens(key: string, size: number, limit: number, windowSeconds: number): Promise<{ granted: number; remainingBeyond: number; ttlMilliseconds: number }> {
    const [count, ttlMilliseconds] = await this.redis[CONSUME_COMMAND](key, String(windowSeconds * 1000), String(size));
    return { granted: Math.min(size, limit - (count - size)), remainingBeyond: Math.max(0, limit - count), ttlMilliseconds };
  }

  private leaseOf(key: string): Lease {
    let lease = this.leases.get(key);
    if (lease) return lease;
    if (this.leases.size >= MAXIMUM_LEASES) {
      const now = Date.now();
      for (const [leasedKey, old] of this.leases) if (old.expiresAt <= now && old.refusedUntil <= now && !old.pending) this.leases.delete(leasedKey);
      // Still full (long windows, many callers: anonymous daily buckets per address): forget the oldest tenth. A
      // forgotten lease costs its caller at most its unused tokens (refused that much early), never an extra request.
      for (const leasedKey of this.leases.keys()) {
        if (this.leases.size < MAXIMUM_LEASES * 0.9) break;
        this.leases.delete(leasedKey);
      }
    }
    lease = { tokens: 0, expiresAt: 0, remainingBeyond: 0, refusedUntil: 0, pending: null };
    this.leases.set(key, lease);
    return lease;
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
