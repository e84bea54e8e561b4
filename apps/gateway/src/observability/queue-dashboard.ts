import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { createQueueDashboard } from '@sift/queue';
import { GATEWAY_CONFIG, type GatewayAppConfig, REDIS } from '../core/core.module';
import { operatorAllowed } from './bearer-access';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

/**
 * Mounts Bull Board at /admin/queues when ADMIN_TOKEN is set, behind that token: `Authorization: Bearer <token>`,
 * or Basic with the token as password so a browser can ask for it. Without ADMIN_TOKEN there is no dashboard.
 */
export function mountQueueDashboard(app: INestApplication): void {
  const config = app.get<GatewayAppConfig>(GATEWAY_CONFIG);
  if (config.ADMIN_TOKEN === '') return;
  const dashboard = createQueueDashboard({ connection: app.get<Redis>(REDIS), prefix: config.QUEUE_PREFIX, basePath: QUEUE_DASHBOARD_PATH });
  app.use(QUEUE_DASHBOARD_PATH, requireAdmin(config.ADMIN_TOKEN), dashboard.router);
}

function requireAdmin(token: string) {
  return (request: Request, response: Response, next: NextFunction): void => {
    if (operatorAllowed(request.headers, token)) {
      next();
      return;
    }
    response.status(401).setHeader('WWW-Authenticate', 'Basic realm="Sift queues", charset="UTF-8"');
    response.json({ detail: { error: 'Unauthorized: the queue dashboard needs the ADMIN_TOKEN.' } });
  };
}
