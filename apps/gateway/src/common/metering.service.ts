import { Injectable } from '@nestjs/common';
import { BilledEndpoint, BillingMeterName, BillingService, CREDIT_COSTS } from '@sift/billing';
import { withBillingErrors } from './billing-error.mapper';
import type { RequestContext } from './request-context';

/**
 * Data-plane billing for one request: a pre-check before the work (432/433 before anything is fetched) and the
 * ledger charge after it, keyed by (request id, kind) so a retry never charges twice. Keyless calls are free.
 * The charge methods return the credits charged; the service reports them in its request outcome.
 */
@Injectable()
export class MeteringService {
  constructor(private readonly billing: BillingService) {}

  async precheck(context: RequestContext, credits: number): Promise<void> {
    const caller = context.caller;
    if (!caller || caller.keyless || credits <= 0) return;
    await withBillingErrors(() => this.billing.assertCanSpend({ accountId: caller.accountId, apiKeyId: caller.apiKeyId, credits }));
  }

  async chargeFixed(context: RequestContext, endpoint: BilledEndpoint, kind: string, credits: number): Promise<number> {
    const caller = context.caller;
    if (!caller || caller.keyless) return 0;
    const result = await withBillingErrors(() =>
      this.billing.charge({
        accountId: caller.accountId,
        apiKeyId: caller.apiKeyId,
        projectExternalId: context.projectExternalId ?? null,
        requestId: context.requestId,
        kind,
        endpoint,
        credits,
      }),
    );
    return result.charged;
  }

  /** Fractional rates (1 credit per 5 extractions, per 10 mapped pages) carried over per account. */
  async chargeMetered(context: RequestContext, endpoint: BilledEndpoint, meter: BillingMeterName, units: number): Promise<number> {
    const caller = context.caller;
    if (!caller || caller.keyless || units <= 0) return 0;
    const rate = CREDIT_COSTS.meters[meter];
    const result = await withBillingErrors(() =>
      this.billing.chargeMetered({
        accountId: caller.accountId,
        apiKeyId: caller.apiKeyId,
        projectExternalId: context.projectExternalId ?? null,
        requestId: context.requestId,
        kind: `${endpoint}:${meter}`,
        endpoint,
        meter,
        units,
        unitsPerBlock: rate.unitsPerBlock,
        creditsPerBlock: rate.creditsPerBlock,
      }),
    );
    return result.charged;
  }

  /** The smallest charge the request can cause: refused up front when even that would exceed a limit. */
  minimumMeteredCredits(meter: BillingMeterName): number {
    return CREDIT_COSTS.meters[meter].creditsPerBlock;
  }
}
