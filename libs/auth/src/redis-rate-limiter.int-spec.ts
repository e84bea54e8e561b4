import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { DEFAULT_KEYLESS_BUDGET, keylessBucketsFor, rateLimitBucketsFor } from './rate-limits';
import { leaseSize, RedisRateLimiter } from './redis-rate-limiter.service';

describe('RedisRateLimiter (real Redis)', () => {
  let redis: Redis;
  let limiter: RedisRateLimiter;
  const keyPrefix = `test:rate:${randomUUID()}:`;

  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL as string);
    limiter = new RedisRateLimiter(redis, keyPrefix);
  });

  afterAll(async () => {
    await redis.quit();
  });

  it('allows exactly the limit, in parallel, then refuses with a Retry-After within the window', async () => {
    const bucket = randomUUID();
    const decisions = await Promise.all(Array.from({ length: 30 }, () => limiter.consume(bucket, 20, 60)));
    const allowed = decisions.filter((decision) => decision.allowed);
    expect(allowed).toHaveLength(20);
    expect(allowed.map((decision) => decision.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    for (const refused of decisions.filter((decision) => !decision.allowed)) {
      expect(refused.remaining).toBe(0);
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
  });

  it('opens again once the window has passed', async () => {
    const bucket = randomUUID();
    expect((await limiter.consume(bucket, 1, 1)).allowed).toBe(true);
    const refused = await limiter.consume(bucket, 1, 1);
    expect(refused).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    // Wait for Redis to expire the window rather than sleeping a guessed time.
    const deadline = Date.now() + 5000;
    while ((await redis.exists(keyPrefix + bucket)) === 1) {
      if (Date.now() > deadline) throw new Error('window did not expire');
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await limiter.consume(bucket, 1, 1)).allowed).toBe(true);
  });

  it('keeps counting after Redis lost its scripts (restart, SCRIPT FLUSH)', async () => {
    const bucket = randomUUID();
    expect((await limiter.consume(bucket, 2, 60)).remaining).toBe(1);
    await redis.script('FLUSH');
    expect(await limiter.consume(bucket, 2, 60)).toEqual({ allowed: true, remaining: 0, retryAfterSeconds: 0 });
    expect((await limiter.consume(bucket, 2, 60)).allowed).toBe(false);
  });

  it('counts a request against every bucket and reports the longest wait', async () => {
    const apiKeyId = randomUUID();
    const buckets = rateLimitBucketsFor(apiKeyId, 'dev', 'research');
    expect(buckets.map((bucket) => [bucket.limit, bucket.windowSeconds])).toEqual([[100, 60], [20, 60]]);
    for (let request = 0; request < 20; request += 1) expect((await limiter.consumeAll(buckets)).allowed).toBe(true);
    const refused = await limiter.consumeAll(buckets);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    // Search on the same key still has its general budget.
    expect((await limiter.consumeAll(rateLimitBucketsFor(apiKeyId, 'dev', 'search'))).allowed).toBe(true);
  });

  it('gives keyless callers their own per-IP budget', async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 250)}-${randomUUID()}`;
    const buckets = keylessBucketsFor(ip, { perMinute: 3, perDay: DEFAULT_KEYLESS_BUDGET.perDay });
    for (let request = 0; request < 3; request += 1) expect((await limiter.consumeAll(buckets)).allowed).toBe(true);
    expect((await limiter.consumeAll(buckets)).allowed).toBe(false);
    expect((await limiter.consumeAll(keylessBucketsFor(`${ip}-other`, { perMinute: 3, perDay: 200 }))).allowed).toBe(true);
  });

  it('leases a hundredth of a large limit per round trip, and two gateways together never exceed the limit', async () => {
    expect([leaseSize(20), leaseSize(199), leaseSize(1000), leaseSize(1_000_000)]).toEqual([1, 1, 10, 50]);
    const bucket = randomUUID();
    for (let request = 0; request < 95; request += 1) expect((await limiter.consume(bucket, 1000, 60)).allowed).toBe(true);
    // 95 requests took ten leases of 10 tokens: ten round trips, not 95.
    expect(Number(await redis.get(keyPrefix + bucket))).toBe(100);
    const other = new RedisRateLimiter(redis, keyPrefix);
    const shared = randomUUID();
    const decisions = await Promise.all(Array.from({ length: 700 }, (_, request) => (request % 2 ? limiter : other).consume(shared, 500, 60)));
    const allowed = decisions.filter((decision) => decision.allowed).length;
    expect(allowed).toBeLessThanOrEqual(500);
    // At most a lease's unused tokens per gateway are lost.
    expect(allowed).toBeGreaterThanOrEqual(500 - 2 * (leaseSize(500) - 1));
  });

  it('refuses a burst on a spent leased window without a round trip per request', async () => {
    const bucket = randomUUID();
    for (let request = 0; request < 200; request += 1) expect((await limiter.consume(bucket, 200, 60)).allowed).toBe(true);
    expect(Number(await redis.get(keyPrefix + bucket))).toBe(200);
    const burst = await Promise.all(Array.from({ length: 50 }, () => limiter.consume(bucket, 200, 60)));
    expect(burst.every((decision) => !decision.allowed && decision.retryAfterSeconds > 0)).toBe(true);
    // One refused lease (two tokens asked) answered the whole burst; before, each request asked again in turn.
    expect(Number(await redis.get(keyPrefix + bucket))).toBe(200 + leaseSize(200));
  });
});
