import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { GATEWAY_CONFIG, REDIS, type GatewayAppConfig } from '../core/core.module';

/** How long a finished request's answer is replayed for (docs/idempotency.md: 24 hours). */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1_000;

/**
 * How long a running request holds its key. Longer than the slowest synchronous route (a crawl's 150 s timeout plus
 * queueing), so a live request never loses it; short enough that a key whose gateway died is free again soon.
 */
export const IDEMPOTENCY_RUNNING_TTL_MS = 5 * 60 * 1_000;

/** A stored answer: what the first request was answered with. */
export interface StoredAnswer {
  status: number;
  /** The JSON text of the body; null when the account keeps no data (zero data retention). */
  body: string | null;
}

export type IdempotencyRecord =
  | { state: 'running'; fingerprint: string; owner: string }
  | { state: 'done'; fingerprint: string; answer: StoredAnswer };

// Deletes the key only while it still holds this owner's running record: a late release never frees a key that
// another request has since claimed or completed.
const RELEASE_IF_OWNER = `
local current = redis.call('GET', KEYS[1])
if current and cjson.decode(current).state == 'running' and cjson.decode(current).owner == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

/**
 * Idempotency records in Redis, shared by every gateway of the deployment (under its QUEUE_PREFIX): a request
 * claims its key with SET NX, then stores its answer or, on a server error, gives the key back.
 */
@Injectable()
export class IdempotencyStore {
  private readonly prefix: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(GATEWAY_CONFIG) config: GatewayAppConfig,
  ) {
    this.prefix = `${config.QUEUE_PREFIX}:idempotency:`;
  }

  /** Claims the key for a request about to run; null when claimed, else the record already there. */
  async claim(key: string, fingerprint: string, owner: string): Promise<IdempotencyRecord | null> {
    const running: IdempotencyRecord = { state: 'running', fingerprint, owner };
    const claimed = await this.redis.set(this.prefix + key, JSON.stringify(running), 'PX', IDEMPOTENCY_RUNNING_TTL_MS, 'NX');
    if (claimed === 'OK') return null;
    // Gone between the SET and the GET (released or expired): the caller claims again.
    return (await this.read(key)) ?? this.claim(key, fingerprint, owner);
  }

  async read(key: string): Promise<IdempotencyRecord | null> {
    const text = await this.redis.get(this.prefix + key);
    return text ? (JSON.parse(text) as IdempotencyRecord) : null;
  }

  async complete(key: string, fingerprint: string, answer: StoredAnswer): Promise<void> {
    const done: IdempotencyRecord = { state: 'done', fingerprint, answer };
    await this.redis.set(this.prefix + key, JSON.stringify(done), 'PX', IDEMPOTENCY_RETENTION_MS);
  }

  async release(key: string, owner: string): Promise<void> {
    await this.redis.eval(RELEASE_IF_OWNER, 1, this.prefix + key, owner);
  }
}
