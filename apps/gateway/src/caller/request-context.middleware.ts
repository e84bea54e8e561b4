import { createHash, randomUUID } from 'node:crypto';
import type { NextFunction, Response } from 'express';
import { withRequestId } from '@sift/queue';
import { honouredRequestId } from '../observability/request-id-header';
import type { RequestWithContext } from './request-context';

/**
 * Runs first: stamps the request id and start time, and reads the optional tracing headers. The rest of the
 * request runs in its log scope, so the gateway's log lines and the jobs it enqueues carry the echoed X-Request-Id.
 */
export function requestContextMiddleware(request: RequestWithContext, response: Response, next: NextFunction): void {
  const humanId = header(request, 'x-human-id');
  const requestId = randomUUID();
  request.sift = {
    requestId,
    correlationId: honouredRequestId(request.headers['x-request-id']) ?? requestId,
    startedAt: process.hrtime.bigint(),
    clientIp: request.ip ?? request.socket.remoteAddress ?? 'unknown',
    projectExternalId: header(request, 'x-project-id'),
    sessionId: header(request, 'x-session-id'),
    // The end user's identifier is never stored in the clear.
    humanIdHash: humanId ? createHash('sha256').update(humanId).digest('hex') : undefined,
  };
  response.setHeader('X-Request-Id', request.sift.correlationId);
  withRequestId(request.sift.correlationId, next);
}

/** `https://host//usage` and `/usage/` reach the same route as `/usage` (clients joining a base URL with a slash). */
export function collapseSlashesMiddleware(request: RequestWithContext, _response: Response, next: NextFunction): void {
  const queryStart = request.url.indexOf('?');
  const path = queryStart === -1 ? request.url : request.url.slice(0, queryStart);
  const normalised = path.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');
  if (normalised !== path) request.url = normalised + (queryStart === -1 ? '' : request.url.slice(queryStart));
  next();
}

function header(request: RequestWithContext, name: string): string | undefined {
  const value = request.headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text && text.length <= 512 ? text : undefined;
}
