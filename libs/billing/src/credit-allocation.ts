import { CreditLimitError, PaygoLimitError } from './billing-errors';

export interface AllocationInput {
  credits: number;
  planMonthlyCredits: number | null;
  planId: string;
  paygoLimit: number | null;
  planUsed: number;
  paygoUsed: number;
  keyLimit: number | null;
  keyUsed: number;
}

export interface Allocation {
  planCredits: number;
  paygoCredits: number;
}

export const PAYGO_PLAN_ID = 'paygo';

/**
 * Splits a charge between the monthly plan allowance and pay-as-you-go, or refuses it whole. Pure, so the
 * rules are unit-tested without a database:
 * - enterprise (no monthly figure) is unlimited;
 * - the paygo plan has no allowance, and without a paygo_limit its pay-as-you-go has no ceiling;
 * - other plans spill into pay-as-you-go only when paygo_limit is set, up to it;
 * - a per-key limit caps the key's monthly total first.
 */
export function allocateCredits(input: AllocationInput): Allocation {
  const { credits } = input;
  if (input.keyLimit !== null && input.keyUsed + credits > input.keyLimit) throw new CreditLimitError('key');
  if (input.planMonthlyCredits === null) return { planCredits: credits, paygoCredits: 0 };
  const planLeft = Math.max(0, input.planMonthlyCredits - input.planUsed);
  const planCredits = Math.min(credits, planLeft);
  const paygoCredits = credits - planCredits;
  if (paygoCredits === 0) return { planCredits, paygoCredits };
  if (input.paygoLimit === null) {
    if (input.planId === PAYGO_PLAN_ID) return { planCredits, paygoCredits };
    throw new CreditLimitError('plan');
  }
  if (input.paygoUsed + paygoCredits > input.paygoLimit) throw new PaygoLimitError();
  return { planCredits, paygoCredits };
}
