import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { LogEndpoint } from '@sift/api-contracts';
import type { Response } from 'express';
import { catchError, from, map, mergeMap, Observable, throwError } from 'rxjs';
import { describeError } from '../http/api-exception.filter';
import { REQUEST_LOG_ENDPOINT } from '../http/endpoint.decorator';
import type { RequestWithContext } from '../caller/request-context';
import { PaymentSettlement } from '../payments/payment-settlement.service';
import type { RequestOutcome } from './request-outcome';
import { RequestRecorder } from './request-recorder.service';

/**
 * For every route marked with `@Endpoint({ requestLog })`: records the request in the request log from the
 * outcome its handler returned and answers with the outcome's response. A request paid over x402 is settled
 * first (charged only for an answer; a failure leaves it unsettled), so its row names the payment: one
 * interceptor for logs and charges, as a second one would cost every search Nest's pipeline again. Requests refused by validation or by the
 * service are recorded with the status the caller receives and what usage the failure carries. Refusals by the guard never reach an
 * interceptor; the guard records those itself.
 */
@Injectable()
export class RequestLogInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly recorder: RequestRecorder,
    private readonly payments: PaymentSettlement,
  ) {}

  intercept(host: ExecutionContext, next: CallHandler<RequestOutcome<unknown>>): Observable<unknown> {
    const endpoint = this.reflector.get<LogEndpoint | undefined>(REQUEST_LOG_ENDPOINT, host.getHandler());
    if (!endpoint) return next.handle();
    const request = host.switchToHttp().getRequest<RequestWithContext>();
    const response = host.switchToHttp().getResponse<Response>();
    const answer = (outcome: RequestOutcome<unknown>) => {
      this.recorder.record(request.sift, endpoint, response.statusCode, outcome.usage);
      return outcome.response;
    };
    const outcomes = next.handle();
    const answered = this.payments.isPaid(request.sift)
      ? outcomes.pipe(mergeMap((outcome) => from(this.payments.settled(response, outcome)).pipe(map(answer))))
      : outcomes.pipe(map(answer));
    return answered.pipe(
      catchError((error: unknown) => {
        this.recorder.record(request.sift, endpoint, describeError(error, request.path).status, this.payments.unsettledUsage(request.sift, error));
        return throwError(() => error);
      }),
    );
  }
}
