import type { Type } from '@nestjs/common';
import { CreditLimitError, PaygoLimitError } from '@sift/billing';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { billingRefusal } from '../billing/billing-error.mapper';
import { ApiError, KeylessLimitError, UNAUTHORIZED_MESSAGE } from './api-error';
import { describeError } from './api-exception.filter';
import { ValidationFailedError } from './validation-failed.error';

/** The Retry-After the documented 429 examples show. */
const EXAMPLE_RETRY_AFTER_SECONDS = 60;

/**
 * The body a route answers with for one of the errors every route documents, made by the code that answers it (the
 * exception filter, the billing mapper, the keyless limit), so the documented examples keep the real wording.
 */
export function commonErrorExample(status: number, requestBody?: Type<object>): unknown {
  switch (status) {
    case 400:
      return validationFailureExample(requestBody);
    case 401:
      return new ApiError(401, UNAUTHORIZED_MESSAGE).getResponse();
    case 429:
      return new ApiError(429, `Rate limit exceeded: too many requests for this API key. Retry after ${EXAMPLE_RETRY_AFTER_SECONDS} seconds.`).getResponse();
    case 432:
      return billingRefusal(new CreditLimitError('plan'))?.getResponse();
    case 433:
      return billingRefusal(new PaygoLimitError())?.getResponse();
    case 500:
      return describeError(new Error('example'), '/').body;
    default:
      throw new Error(`no common error example for status ${status}`);
  }
}

/** A route's own error, documented by its meaning: that message in the spec's shape. */
export function routeErrorExample(status: number, meaning: string): unknown {
  return new ApiError(status, meaning).getResponse();
}

/** The keyless envelope official clients recognise by `error.code`, answered when the keyless budget is spent. */
export function keylessLimitExample(): unknown {
  return new KeylessLimitError(EXAMPLE_RETRY_AFTER_SECONDS).getResponse();
}

/** What the validation pipe answers for an empty body; a route without required fields shows the generic 400. */
function validationFailureExample(requestBody?: Type<object>): unknown {
  const errors = requestBody ? validateSync(plainToInstance(requestBody, {})) : [];
  const failure = errors.length ? ValidationFailedError.fromErrors(errors) : { status: 400 };
  return describeError(failure, '/').body;
}
