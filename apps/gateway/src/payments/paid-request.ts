import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import type { PaymentClaim } from './payment-claims';

/**
 * A request paid for over x402 instead of with an API key: who pays what, verified by the facilitator and claimed
 * by this request before the work starts, and settled only after it succeeded. Carried on the caller, fixed once
 * the guard has run.
 */
export interface PaidRequest {
  /** The paying wallet's address. */
  payer: string;
  /** In the asset's smallest unit (USDC: millionths of a dollar). */
  amount: string;
  /** The token contract paid in (the network's USDC). */
  asset: string;
  /** CAIP-2 chain id, e.g. eip155:8453. */
  network: string;
  /** The operator's account that holds the request log of paid requests; payers need no account of their own. */
  logAccountId: string;
  payload: PaymentPayload;
  requirements: PaymentRequirements;
  /** This request's hold on the payment, taken before the work: no other request is served with it meanwhile. */
  claim: PaymentClaim;
}

/** What a paid request's request-log row says about its payment (`detail.payment`). */
export function paymentDetail(payment: PaidRequest, transaction: string | null): Record<string, string | null> {
  return { payer: payment.payer, amount: payment.amount, asset: payment.asset, network: payment.network, transaction };
}
