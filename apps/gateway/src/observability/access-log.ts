import type { NextFunction, Request, Response } from 'express';
import { createStructuredLogger } from '@sift/queue';
import type { RequestWithContext } from '../caller/request-context';

/** ACCESS_LOG: the level of the one line per request, or off. */
export type AccessLogLevel = 'error' | 'warn' | 'log' | 'debug' | 'verbose' | 'off';

const PINO_METHODS = { error: 'error', warn: 'warn', log: 'info', debug: 'debug', verbose: 'trace' } as const;

/** Probes a kubelet or a scraper sends every few seconds: logged at debug, or they would bury the requests. */
const PROBE_PATHS = new Set(['/health', '/live', '/metrics']);

/**
 * One JSON line per request when its response ends: the request id (the caller's X-Request-Id when honoured, as the
 * workers' lines carry it), method, route (the matched pattern, else the path; never the query string), status, the
 * time from arrival to the last byte, and `aborted` when the client left first. An operator follows a request from
 * the edge through the gateway into the workers by its id, without the database. Successful probes (/health, /live,
 * /metrics) are logged at debug.
 */
export function accessLogMiddleware(level: AccessLogLevel, siftLogLevel: string): (request: Request, response: Response, next: NextFunction) => void {
  if (level === 'off') return (_request, _response, next) => next();
  const logger = createStructuredLogger('gateway', siftLogLevel);
  const method = PINO_METHODS[level];
  return (request: Request, response: Response, next: NextFunction) => {
    response.once('close', () => {
      // Set by requestContextMiddleware, which runs first.
      const context = (request as Partial<RequestWithContext>).sift;
      const route = (request.route as { path?: unknown } | undefined)?.path;
      logger[PROBE_PATHS.has(request.path) && response.statusCode < 400 ? 'debug' : method]({
        message: 'request',
        requestId: context?.correlationId,
        method: request.method,
        route: typeof route === 'string' ? route : request.path,
        status: response.statusCode,
        durationMs: context ? Math.round(Number(process.hrtime.bigint() - context.startedAt) / 1e5) / 10 : undefined,
        ...(response.writableFinished ? {} : { aborted: true }),
      });
    });
    next();
  };
}
