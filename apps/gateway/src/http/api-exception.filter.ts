import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { QueueUnavailableError } from '@sift/queue';
import { ApiError, KeylessLimitError, ServiceUnavailableError } from './api-error';
import type { RequestWithContext } from '../caller/request-context';
import { failureCause } from '../request-log/request-outcome';
import { isDatabaseUnavailable } from './database-unavailable';
import { ValidationFailedError } from './validation-failed.error';
import { FEEDBACK_MAX_BODY_BYTES } from './body-limits';

interface BodyParserError {
  type?: string;
  status?: number;
}

/** Every error leaves in the spec's shape; nothing unexpected becomes anything but a plain 500. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<RequestWithContext>();
    const response = host.switchToHttp().getResponse<Response>();
    const error = failureCause(exception);
    const { status, body, headers } = describeError(error, request.path);
    // A 503 is a known outage (Redis or Postgres down), reported once per request without a stack; other 5xx are bugs.
    if (status === 503) this.logger.warn(`${request.method} ${request.path}: 503 ${(error as Error)?.message ?? error}`);
    else if (status >= 500) this.logger.error(`${request.method} ${request.path}: ${(error as Error)?.stack ?? error}`);
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    if (request.sift?.correlationId) response.setHeader('X-Request-Id', request.sift.correlationId);
    response.status(status).json(body);
  }
}

/** The answer an error leaves as; the request log records the same status the caller received. */
export function describeError(failure: unknown, path: string): { status: number; body: unknown; headers: Record<string, string> } {
  const exception = failureCause(failure);
  const isFeedback = path === '/feedback';
  if (exception instanceof KeylessLimitError) {
    return { status: 429, body: exception.getResponse(), headers: { 'Retry-After': String(exception.retryAfterSeconds) } };
  }
  if (exception instanceof QueueUnavailableError) {
    const unavailable = new ServiceUnavailableError('the job queue cannot be reached', exception.retryAfterSeconds);
    return { status: 503, body: unavailable.getResponse(), headers: unavailable.headers };
  }
  if (exception instanceof ApiError) {
    return { status: exception.getStatus(), body: exception.getResponse(), headers: exception.headers };
  }
  if (exception instanceof ValidationFailedError) {
    const status = isFeedback ? 422 : 400;
    const prefix = isFeedback ? 'Validation error in request body' : 'Invalid request';
    return { status, body: { detail: { error: `${prefix}: ${exception.messages.join('; ')}` } }, headers: {} };
  }
  const parserError = exception as BodyParserError;
  if (parserError?.type === 'entity.too.large') {
    const limit = isFeedback ? FEEDBACK_MAX_BODY_BYTES : undefined;
    const message = limit ? `Request body exceeds ${limit} bytes.` : 'Request body is too large.';
    return { status: 413, body: { detail: { error: message } }, headers: {} };
  }
  if (parserError?.type === 'entity.parse.failed') {
    return { status: 400, body: { detail: { error: 'Request body is not valid JSON.' } }, headers: {} };
  }
  if (parserError?.type === 'charset.unsupported' || parserError?.type === 'encoding.unsupported') {
    return { status: 415, body: { detail: { error: 'Unsupported request body encoding.' } }, headers: {} };
  }
  // Express's own 4xx errors (http-errors), such as a path parameter that is not valid percent-encoding.
  if (!(exception instanceof HttpException) && typeof parserError?.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
    return { status: parserError.status, body: { detail: { error: 'Invalid request.' } }, headers: {} };
  }
  if (isDatabaseUnavailable(exception)) {
    const unavailable = new ServiceUnavailableError('the database cannot be reached');
    return { status: 503, body: unavailable.getResponse(), headers: unavailable.headers };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const message = status === 404 ? 'Not found.' : exception.message;
    return { status, body: { detail: { error: message } }, headers: {} };
  }
  const message = isFeedback ? 'Error when processing feedback.' : 'Internal server error.';
  return { status: 500, body: { detail: { error: message } }, headers: {} };
}
