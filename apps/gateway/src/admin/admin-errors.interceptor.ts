import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { catchError, type Observable, throwError } from 'rxjs';
import { AdminError } from '@sift/admin';
import { ForbiddenActionError, NotFoundError, TeamConflictError } from '@sift/auth';
import { ApiError } from '../http/api-error';

const STATUS_OF_KIND = { invalid: 400, 'not-found': 404, conflict: 409 } as const;

/** The admin services' refusals in the spec's error shape: bad input 400, unknown account/key/member 404, a rule 409. */
@Injectable()
export class AdminErrorsInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(catchError((error: unknown) => throwError(() => apiErrorOf(error))));
  }
}

export function apiErrorOf(error: unknown): unknown {
  if (error instanceof AdminError) return new ApiError(STATUS_OF_KIND[error.kind], error.message);
  if (error instanceof NotFoundError) return new ApiError(404, error.message);
  // The team's rules (one owner, no duplicate e-mail) bind the operator too: the request conflicts with them.
  if (error instanceof TeamConflictError || error instanceof ForbiddenActionError) return new ApiError(409, error.message);
  return error;
}
