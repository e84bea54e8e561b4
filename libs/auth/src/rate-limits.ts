import type { ApiKeyEnvironment } from './api-key-format';

export interface RateLimitRule {
  limit: number;
  windowSeconds: number;
}

/** Requests per window for keyed callers. Crawl, research and usage have their own, tighter buckets. */
export interface RateLimitTable {
  development: RateLimitRule;
  production: RateLimitRule;
  crawl: RateLimitRule;
  research: RateLimitRule;
  usage: RateLimitRule;
}

export const DEFAULT_RATE_LIMITS: Readonly<RateLimitTable> = Object.freeze({
  development: { limit: 100, windowSeconds: 60 },
  production: { limit: 1000, windowSeconds: 60 },
  crawl: { limit: 100, windowSeconds: 60 },
  research: { limit: 20, windowSeconds: 60 },
  usage: { limit: 10, windowSeconds: 600 },
});

/** Keyless callers are counted per client IP, in two windows: a burst budget and a daily one. */
export interface KeylessBudget {
  perMinute: number;
  perDay: number;
}

export const DEFAULT_KEYLESS_BUDGET: Readonly<KeylessBudget> = Object.freeze({ perMinute: 20, perDay: 200 });

export type RateLimitedEndpoint = 'search' | 'extract' | 'crawl' | 'map' | 'research' | 'usage' | 'feedback';

export interface RateLimitBucket extends RateLimitRule {
  bucketKey: string;
}

/**
 * The buckets one keyed request counts against: always the key's general per-minute bucket, plus the
 * endpoint's own bucket for crawl, research and usage.
 */
export function rateLimitBucketsFor(
  apiKeyId: string,
  environment: ApiKeyEnvironment,
  endpoint: RateLimitedEndpoint,
  table: RateLimitTable = DEFAULT_RATE_LIMITS,
): RateLimitBucket[] {
  if (endpoint === 'usage') return [{ bucketKey: `key:${apiKeyId}:usage`, ...table.usage }];
  const general = environment === 'prod' ? table.production : table.development;
  const buckets: RateLimitBucket[] = [{ bucketKey: `key:${apiKeyId}:all`, ...general }];
  if (endpoint === 'crawl') buckets.push({ bucketKey: `key:${apiKeyId}:crawl`, ...table.crawl });
  if (endpoint === 'research') buckets.push({ bucketKey: `key:${apiKeyId}:research`, ...table.research });
  return buckets;
}

export function keylessBucketsFor(clientIp: string, budget: KeylessBudget = DEFAULT_KEYLESS_BUDGET): RateLimitBucket[] {
  return [
    { bucketKey: `keyless:${clientIp}:minute`, limit: budget.perMinute, windowSeconds: 60 },
    { bucketKey: `keyless:${clientIp}:day`, limit: budget.perDay, windowSeconds: 86_400 },
  ];
}
