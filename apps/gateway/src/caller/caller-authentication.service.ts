import { Inject, Injectable } from '@nestjs/common';
import {
  ApiKeyAuthenticator,
  AuthenticatedKey,
  hashApiKey,
  keylessBucketsFor,
  rateLimitBucketsFor,
  RateLimitBucket,
  RateLimitedEndpoint,
  RateLimitTable,
  RedisRateLimiter,
} from '@sift/auth';
import { isRedisConnectionError } from '@sift/queue';
import type { Caller, KeyedCaller } from './request-context';
import { ServiceUnavailableError } from '../http/api-error';
import { GATEWAY_CONFIG, GatewayAppConfig } from '../core/core.module';

/**
 * How long a successful key lookup is reused. Every request used to read the key, its account and plan from
 * Postgres; for this long a key deactivated by another process (admin CLI, another replica) or a plan change
 * can still be seen as before. Deactivation through this gateway (POST /keys/deactivate) takes effect at once.
 */
export const API_KEY_CACHE_MILLISECONDS = 10_000;
/** Bounds the cache; past it, the oldest entry is dropped (Map keeps insertion order). */
const API_KEY_CACHE_ENTRIES = 10_000;

interface CachedCaller {
  caller: KeyedCaller;
  expiresAt: number;
}

export interface BudgetVerdict {
  allowed: boolean;
  retryAfterSeconds: number;
}

/** The gateway's view of @sift/auth: who is calling, and may they call again now. */
@Injectable()
export class CallerAuthentication {
  private readonly table: RateLimitTable;
  /** Keyed by the key's hash, never the key itself. */
  private readonly callers = new Map<string, CachedCaller>();

  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly limiter: RedisRateLimiter,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayAppConfig,
  ) {
    this.table = {
      development: { limit: config.RATE_LIMIT_DEV_PER_MINUTE, windowSeconds: 60 },
      production: { limit: config.RATE_LIMIT_PROD_PER_MINUTE, windowSeconds: 60 },
      crawl: { limit: config.RATE_LIMIT_CRAWL_PER_MINUTE, windowSeconds: 60 },
      research: { limit: config.RATE_LIMIT_RESEARCH_PER_MINUTE, windowSeconds: 60 },
      usage: { limit: config.RATE_LIMIT_USAGE_PER_10_MINUTES, windowSeconds: 600 },
    };
  }

  async authenticate(rawKey: string): Promise<KeyedCaller | null> {
    const hash = hashApiKey(rawKey);
    const cached = this.callers.get(hash);
    if (cached && cached.expiresAt > Date.now()) return { ...cached.caller };
    this.callers.delete(hash);
    const key = await this.authenticator.authenticate(rawKey);
    if (!key) return null;
    // Unknown keys are not cached: a key created a moment ago must work at once. A key with a ttl is cached no
    // longer than it lives, so it is refused from its expiry on, not up to a cache period later.
    const caller = keyedCallerOf(key);
    if (this.callers.size >= API_KEY_CACHE_ENTRIES) this.callers.delete(this.callers.keys().next().value as string);
    const cachedUntil = Date.now() + API_KEY_CACHE_MILLISECONDS;
    this.callers.set(hash, { caller, expiresAt: key.expiresAt ? Math.min(cachedUntil, key.expiresAt.getTime()) : cachedUntil });
    return { ...caller };
  }

  /** Drops a key from the cache; called when it is deactivated through this gateway. */
  forgetKey(apiKeyId: string): void {
    for (const [hash, entry] of this.callers) {
      if (entry.caller.apiKeyId === apiKeyId) this.callers.delete(hash);
    }
  }

  /** Drops every key of a member from the cache; called when the member is removed (which deactivates them). */
  forgetMember(memberId: string): void {
    for (const [hash, entry] of this.callers) {
      if (entry.caller.memberId === memberId) this.callers.delete(hash);
    }
  }

  consumeKeyBudget(caller: KeyedCaller, category: string): Promise<BudgetVerdict> {
    const endpoint: RateLimitedEndpoint = category === 'default' ? 'search' : (category as RateLimitedEndpoint);
    const environment = caller.environment === 'prod' ? 'prod' : 'dev';
    return this.consumeAll(rateLimitBucketsFor(caller.apiKeyId, environment, endpoint, this.table));
  }

  /** One unit of the caller's budget: the key's (at the category's buckets) or the keyless one of its address. */
  consumeCallerBudget(caller: Caller, category: string): Promise<BudgetVerdict> {
    return caller.keyless ? this.consumeKeylessBudget(caller.clientIp) : this.consumeKeyBudget(caller, category);
  }

  consumeKeylessBudget(clientIp: string): Promise<BudgetVerdict> {
    return this.consumeAll(keylessBucketsFor(clientIp, { perMinute: this.config.KEYLESS_REQUESTS_PER_MINUTE, perDay: this.config.KEYLESS_REQUESTS_PER_MINUTE * 10 }));
  }

  private async consumeAll(buckets: RateLimitBucket[]): Promise<BudgetVerdict> {
    const decision = await this.limiter.consumeAll(buckets).catch((error: unknown) => {
      // The counters live in Redis (fail-fast connection): without them no request is admitted, and none hangs.
      if (isRedisConnectionError(error)) throw new ServiceUnavailableError('rate limits cannot be checked');
      throw error;
    });
    return { allowed: decision.allowed, retryAfterSeconds: decision.allowed ? 0 : Math.max(1, decision.retryAfterSeconds) };
  }
}

function keyedCallerOf(key: AuthenticatedKey): KeyedCaller {
  return {
    keyless: false,
    apiKeyId: key.apiKeyId,
    accountId: key.accountId,
    accountName: key.accountName,
    memberId: key.memberId,
    environment: key.environment,
    planId: key.planId,
    planPaid: key.planPaid,
    planMonthlyCredits: key.planMonthlyCredits,
    paygoLimit: key.paygoLimit,
    zeroDataRetention: key.zeroDataRetention,
    creditLimit: key.creditLimit,
    projectExternalId: key.projectExternalId ?? undefined,
  };
}
