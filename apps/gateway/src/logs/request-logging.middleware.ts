import { Injectable, Logger, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { ProjectRepository } from '@sift/persistence';
import { responseTimeSeconds, RequestWithContext } from '../common/request-context';
import { httpRequestDuration } from '../metrics/http-metrics';
import { RequestLogWriter } from './request-log-writer.service';

/** The data-plane endpoints whose requests appear in POST /logs. */
export const LOGGED_ENDPOINTS = ['search', 'extract', 'crawl', 'map', 'research'] as const;

/**
 * Records every finished data-plane request of a keyed caller (success or error) with its depth, latency and the
 * credits charged, and observes latency for /metrics. Logging never fails a request.
 */
@Injectable()
export class RequestLoggingMiddleware implements NestMiddleware {
  private readonly logger = new Logger('request-log');
  private readonly duration = httpRequestDuration();

  constructor(
    private readonly logs: RequestLogWriter,
    private readonly projects: ProjectRepository,
  ) {}

  use(request: RequestWithContext, response: Response, next: NextFunction): void {
    response.on('finish', () => {
      const context = request.sift;
      if (!context) return;
      const endpoint = request.path.replace(/^\//, '').split('/')[0] || 'root';
      const seconds = responseTimeSeconds(context);
      const known = (LOGGED_ENDPOINTS as readonly string[]).includes(endpoint) || ['usage', 'logs', 'feedback', 'health'].includes(endpoint);
      this.duration.observe({ method: request.method, route: known ? `/${endpoint}` : 'other', status: String(response.statusCode) }, seconds);
      if (!(LOGGED_ENDPOINTS as readonly string[]).includes(endpoint)) return;
      const caller = context.caller;
      if (!caller || caller.keyless) return;
      void this.record(caller.accountId, caller.apiKeyId, endpoint, response.statusCode, seconds, context).catch((error: Error) =>
        this.logger.warn(`could not record request ${context.requestId}: ${error.message}`),
      );
    });
    next();
  }

  private async record(
    accountId: string,
    apiKeyId: string,
    endpoint: string,
    statusCode: number,
    seconds: number,
    context: RequestWithContext['sift'],
  ): Promise<void> {
    const finishedAt = new Date();
    const project = context.projectExternalId ? await this.projects.findOrCreate(accountId, context.projectExternalId) : null;
    this.logs.add(accountId, {
      requestId: context.requestId,
      apiKeyId,
      projectId: project?.id ?? null,
      endpoint,
      depth: context.depth ?? null,
      statusCode,
      responseTime: seconds,
      credits: context.credits,
      sessionId: context.sessionId ?? null,
      humanIdHash: context.humanIdHash ?? null,
      detail: context.logDetail as never,
      createdAt: finishedAt,
    });
  }
}
