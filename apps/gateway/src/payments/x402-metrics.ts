import { Counter, register } from 'prom-client';

/**
 * How an x402 payment attempt ended: asked to pay, payment refused, payment already held by another request,
 * settled, not settled because the work failed, settlement refused.
 */
export type PaymentOutcome = 'required' | 'refused' | 'duplicate' | 'settled' | 'unsettled' | 'settlement_failed';

export interface X402Metrics {
  payments: Counter<'outcome'>;
  settledAmount: Counter<'network' | 'asset'>;
}

/** Registered once per process (test files start several gateways in one). */
export function x402Metrics(): X402Metrics {
  const payments =
    (register.getSingleMetric('sift_x402_payments_total') as Counter<'outcome'> | undefined) ??
    new Counter({
      name: 'sift_x402_payments_total',
      help: 'Pay-per-request (x402) attempts by outcome: required, refused, duplicate (held by another request), settled, unsettled (the work failed), settlement_failed.',
      labelNames: ['outcome'],
    });
  const settledAmount =
    (register.getSingleMetric('sift_x402_settled_amount_total') as Counter<'network' | 'asset'> | undefined) ??
    new Counter({
      name: 'sift_x402_settled_amount_total',
      help: "Amount settled over x402, in the asset's smallest unit (USDC: millionths of a dollar).",
      labelNames: ['network', 'asset'],
    });
  return { payments, settledAmount };
}
