/**
 * Over the key's own credit limit, or over the plan's allowance with pay-as-you-go off. The gateway answers
 * 432 ("upgrade the plan or contact support").
 */
export class CreditLimitError extends Error {
  constructor(
    readonly reason: 'key' | 'plan',
    message = reason === 'key' ? 'This request exceeds the API key usage limit.' : "This request exceeds your plan's set usage limit.",
  ) {
    super(message);
    this.name = 'CreditLimitError';
  }
}

/** Over the account's pay-as-you-go ceiling. The gateway answers 433 ("raise it in the dashboard"). */
export class PaygoLimitError extends Error {
  constructor(message = 'This request exceeds the pay-as-you-go limit.') {
    super(message);
    this.name = 'PaygoLimitError';
  }
}

/** The account or key named in a charge does not exist (a programming error upstream, not a user error). */
export class BillingSubjectNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BillingSubjectNotFoundError';
  }
}
