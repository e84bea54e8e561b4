import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { RequestContext, RequestWithContext } from '../caller/request-context';
import { FailedRequestError, failureUsage, RequestOutcome, RequestUsage } from '../request-log/request-outcome';
import { PaidRequest, paymentDetail } from './paid-request';
import { X402Payments } from './x402-payments.service';

/**
 * A paid request's payment follows its outcome: settled once its route succeeded (the answer then carries the
 * receipt), left unsettled and let go when it failed, so the payer is charged only for an answer. Either way its
 * request log row names the payment.
 */
@Injectable()
export class PaymentSettlement {
  constructor(private readonly payments: X402Payments) {}

  /** True when the request was paid over x402: its outcome must be settled before it is answered. */
  isPaid(context: RequestContext): boolean {
    return paymentOf(context) !== undefined;
  }

  /**
   * A route's successful outcome, settled first when the request was paid; a settlement the facilitator refuses
   * withholds the answer (the exception filter answers the refusal).
   */
  async settled<Body>(response: Response, outcome: RequestOutcome<Body>): Promise<RequestOutcome<Body>> {
    const request = response.req as RequestWithContext;
    const payment = paymentOf(request.sift);
    if (!payment) return outcome;
    try {
      const settlement = await this.payments.settle(payment, request);
      for (const [name, value] of Object.entries(settlement.headers)) response.setHeader(name, value);
      // The receipt is this payer's alone.
      response.setHeader('Cache-Control', 'private');
      return { ...outcome, usage: withPayment(outcome.usage, payment, settlement.transaction) };
    } catch (error) {
      throw new SettlementFailedError(error, withPayment(outcome.usage, payment, null));
    }
  }

  /**
   * What a failed request is recorded with: a paid one's payment is left unsettled, and its row says so. The payment
   * is let go (nobody was charged for it), so its payer may send it again.
   */
  unsettledUsage(context: RequestContext, failure: unknown): RequestUsage {
    const usage = failureUsage(failure);
    const payment = paymentOf(context);
    if (payment) void this.payments.release(payment);
    // A refused settlement is counted as such by X402Payments, and its usage already names the payment.
    if (!payment || failure instanceof SettlementFailedError) return usage;
    this.payments.leaveUnsettled();
    return withPayment(usage, payment, null);
  }
}

/** The work succeeded but its payment could not be settled. */
class SettlementFailedError extends FailedRequestError {}

function paymentOf(context: RequestContext): PaidRequest | undefined {
  const caller = context.caller;
  return caller?.keyless ? caller.payment : undefined;
}

function withPayment(usage: RequestUsage, payment: PaidRequest, transaction: string | null): RequestUsage {
  const detail = usage.detail && typeof usage.detail === 'object' && !Array.isArray(usage.detail) ? usage.detail : {};
  return { ...usage, detail: { ...detail, payment: paymentDetail(payment, transaction) } };
}
