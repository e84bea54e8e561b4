import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS } from '../core/core.module';
import { ServiceUnavailableError } from '../http/api-error';

/** One payment held by one request: the payment's identity and the request holding it. */
export interface PaymentClaim {
  /** The payment's identity: its network, asset, payer and EIP-3009 nonce (one transfer authorization). */
  key: string;
  /** The request id holding it, so only that request lets it go. */
  holder: string;
  /** How long the claim holds if nobody lets it go: the authorization's validity, bounded. */
  holdMilliseconds: number;
}

/** Deletes the claim only if the given request still holds it (an expired claim may have been taken by another). */
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`;

const RELEASE_COMMAND = 'siftReleasePaymentClaim';

type RedisWithRelease = Redis & { [RELEASE_COMMAND](key: string, holder: string): Promise<number> };

/**
 * One x402 payment pays for one piece of work. The facilitator only verifies a payment (it is settled after the
 * work), so the same signed payment sent many times at once is verified as many times; the first request to claim
 * it here does the work, the others are refused before doing any. The claim is one atomic SET NX in Redis, shared
 * by every gateway replica. A settled payment keeps its claim until it expires (its nonce is spent on chain
 * anyway); one whose work failed or whose settlement was refused is let go, so its payer may use it again.
 */
@Injectable()
export class PaymentClaims {
  private readonly redis: RedisWithRelease;

  constructor(@Inject(REDIS) redis: Redis) {
    redis.defineCommand(RELEASE_COMMAND, { numberOfKeys: 1, lua: RELEASE_SCRIPT });
    this.redis = redis as RedisWithRelease;
  }

  /** True when the request now holds the payment; false when another request holds it. 503 when Redis cannot say. */
  async claim(claim: PaymentClaim): Promise<boolean> {
    try {
      return (await this.redis.set(claim.key, claim.holder, 'PX', Math.max(1, Math.ceil(claim.holdMilliseconds)), 'NX')) === 'OK';
    } catch (error) {
      throw new ServiceUnavailableError(`payments cannot be checked for reuse (${(error as Error).message})`);
    }
  }

  /** Lets the payment go, if this request still holds it. Best effort: a claim that stays simply expires. */
  async release(claim: PaymentClaim): Promise<void> {
    await this.redis[RELEASE_COMMAND](claim.key, claim.holder).catch(() => undefined);
  }
}
