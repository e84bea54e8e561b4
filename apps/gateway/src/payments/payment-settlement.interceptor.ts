import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { catchError, from, mergeMap, Observable, throwError } from 'rxjs';
import type { RequestWithContext } from '../caller/request-context';
import { failureCause, failureUsage, FailedRequestError, RequestOutcome, RequestUsage } from '../request-log/request-outcome';
import { PaidRequest, paymentDetail } from './paid-request';
import { X402Payments } from './x402-payments.service';

/**
 * Settles the payment of a paid request once its route has succeeded, and adds the payment to the outcome the
 * request log records. A route that fails leaves the payment unsettled: the payer is charged only for an answer.
 * Runs inside the request-log interceptor, so the log row carries the payment and the status the caller got.
 */
@Injectable()
export class PaymentSettlementInterceptor implements NestInterceptor {
  constructor(private readonly payments: X402Payments) {}

  intercept(host: ExecutionContext, next: CallHandler<RequestOutcome<unknown>>): Observable<RequestOutcome<unknown>> {
    const request = host.switchToHttp().getRequest<RequestWithContext>();
    const caller = request.sift.caller;
    const payment = caller?.keyless ? caller.payment : undefined;
    if (!payment) return next.handle();
    return next.handle().pipe(
      catchError((error: unknown) => {
        this.payments.leaveUnsettled();
        return throwError(() => new FailedRequestError(failureCause(error), withPayment(failureUsage(error), payment, null)));
      }),
      mergeMap((outcome) => from(this.settle(payment, request, host.switchToHttp().getResponse<Response>(), outcome))),
    );
  }

  private async settle(payment: PaidRequest, request: RequestWithContext, response: Response, outcome: RequestOutcome<unknown>): Promise<RequestOutcome<unknown>> {
    try {
      const settlement = await this.payments.settle(payment, request);
      for (const [name, value] of Object.entries(settlement.headers)) response.setHeader(name, value);
      // The receipt is this payer's alone.
      response.setHeader('Cache-Control', 'private');
      return { ...outcome, usage: withPayment(outcome.usage, payment, settlement.transaction) };
    } catch (error) {
      throw new FailedRequestError(error, withPayment(outcome.usage, payment, null));
    }
  }
}

function withPayment(usage: RequestUsage, payment: PaidRequest, transaction: string | null): RequestUsage {
  const detail = usage.detail && typeof usage.detail === 'object' && !Array.isArray(usage.detail) ? usage.detail : {};
  return { ...usage, detail: { ...detail, payment: paymentDetail(payment, transaction) } };
}
