import { Inject, Injectable } from '@nestjs/common';
import {
  ApiKeyAuthenticator,
  keylessBucketsFor,
  rateLimitBucketsFor,
  RateLimitBucket,
  RateLimitedEndpoint,
  RateLimitTable,
  RedisRateLimiter,
} from '@sift/auth';
import type { KeyedCaller } from './request-context';
import { GATEWAY_CONFIG, GatewayAppConfig } from '../core/core.module';

export interface BudgetVerdict {
  allowed: boolean;
  retryAfterSeconds: number;
}

/** The gateway's view of @sift/auth: who is calling, and may they call again now. */
@Injectable()
export class CallerAuthentication {
  private readonly table: RateLimitTable;

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
    const key = await this.authenticator.authenticate(rawKey);
    if (!key) return null;
    return {
      keyless: false,
      apiKeyId: key.apiKeyId,
      accountId: key.accountId,
      accountName: key.accountName,
      memberId: key.memberId,
      environment: key.environment,
      planId: key.planId,
      planPaid: key.planPaid,
      zeroDataRetention: key.zeroDataRetention,
      creditLimit: key.creditLimit,
    };
  }

  consumeKeyBudget(caller: KeyedCaller, category: string): Promise<BudgetVerdict> {
    const endpoint: RateLimitedEndpoint = category === 'default' ? 'search' : (category as RateLimitedEndpoint);
    const environment = caller.environment === 'prod' ? 'prod' : 'dev';
    return this.consumeAll(rateLimitBucketsFor(caller.apiKeyId, environment, endpoint, this.table));
  }

  consumeKeylessBudget(clientIp: string): Promise<BudgetVerdict> {
    return this.consumeAll(keylessBucketsFor(clientIp, { perMinute: this.config.KEYLESS_REQUESTS_PER_MINUTE, perDay: this.config.KEYLESS_REQUESTS_PER_MINUTE * 10 }));
  }

  private async consumeAll(buckets: RateLimitBucket[]): Promise<BudgetVerdict> {
    let retryAfterSeconds = 0;
    for (const bucket of buckets) {
      const decision = await this.limiter.consume(bucket.bucketKey, bucket.limit, bucket.windowSeconds);
      if (!decision.allowed) retryAfterSeconds = Math.max(retryAfterSeconds, Math.max(1, decision.retryAfterSeconds));
    }
    return { allowed: retryAfterSeconds === 0, retryAfterSeconds };
  }
}
