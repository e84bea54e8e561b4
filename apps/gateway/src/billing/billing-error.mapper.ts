import { CreditLimitError, PaygoLimitError } from '@sift/billing';
import { ApiError } from '../http/api-error';

/** The ledger's refusals as the spec's statuses: 432 key or plan limit, 433 pay-as-you-go limit. */
export function billingRefusal(error: unknown): ApiError | null {
  if (error instanceof CreditLimitError) {
    return new ApiError(432, `${error.message} Upgrade your plan or contact support.`);
  }
  if (error instanceof PaygoLimitError) {
    return new ApiError(433, `${error.message} Raise your pay-as-you-go limit to continue.`);
  }
  return null;
}

export async function withBillingErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw billingRefusal(error) ?? error;
  }
}
