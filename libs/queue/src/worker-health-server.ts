import { createServer, type Server } from 'node:http';
import type { RedisHealth } from './redis-health';

export interface WorkerHealthServerOptions {
  port: number;
  host?: string;
  checkRedis: () => Promise<RedisHealth>;
  metrics: () => Promise<string>;
  metricsContentType: string;
}

/** Serves GET /health (Redis reachable → 200, else 503) and GET /metrics (Prometheus text) for orchestrators. */
export async function startWorkerHealthServer(options: WorkerHealthServerOptions): Promise<{ server: Server; port: number; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://worker').pathname;
    const answer = async (): Promise<void> => {
      if (request.method !== 'GET') {
        response.writeHead(405, { allow: 'GET' }).end();
      } else if (path === '/health') {
        const redis = await options.checkRedis();
        response.writeHead(redis.ok ? 200 : 503, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ status: redis.ok ? 'ok' : 'error', redis }));
      } else if (path === '/metrics') {
        const text = await options.metrics();
        response.writeHead(200, { 'content-type': options.metricsContentType }).end(text);
      } else {
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Not found' }));
      }
    };
    answer().catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  return {
    server,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
