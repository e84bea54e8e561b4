import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { RequestWithContext, responseTimeSeconds } from '../caller/request-context';
import { httpRequestDuration } from './http-metrics';

/**
 * Observes the latency of every HTTP request for /metrics, labelled by the route that served it. A middleware and
 * not the request-log interceptor, because requests that never reach a handler (404, body too large, refused by
 * the guard) count too.
 */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  private readonly duration = httpRequestDuration();

  use(request: RequestWithContext, response: Response, next: NextFunction): void {
    response.on('finish', () => {
      const context = request.sift;
      if (!context) return;
      // The matched route's pattern (`/search`, `/keys/:id`), so the label set stays small; no route is 'other'.
      const route = typeof request.route?.path === 'string' ? request.route.path : 'other';
      this.duration.observe({ method: request.method, route, status: String(response.statusCode) }, responseTimeSeconds(context));
    });
    next();
  }
}
