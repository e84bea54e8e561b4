import { access, constants } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { EventLoopHealth } from './event-loop-watch';
import type { RedisHealth } from './redis-health';

/** How long a dependency check may take: a probe answers within it even when Postgres hangs. */
export const DEPENDENCY_CHECK_TIMEOUT_MS = 1_000;

/** True when the dependency answers; a check must settle within DEPENDENCY_CHECK_TIMEOUT_MS (it runs on every probe). */
export type DependencyCheck = () => Promise<boolean>;

export interface WorkerHealthServerOptions {
  port: number;
  host?: string;
  checkRedis: () => Promise<RedisHealth>;
  /** What else the worker cannot work without (Postgres, Chromium), by name. */
  dependencies?: Record<string, DependencyCheck>;
  /** Whether the process's event loop was blocked recently (EventLoopWatch). */
  eventLoop?: () => EventLoopHealth;
  metrics: () => Promise<string>;
  metricsContentType: string;
}

/**
 * Serves GET /health (readiness: 200 when Redis and every dependency answer and the event loop was not blocked
 * recently, else 503, with each one's state), GET /live (liveness: 200 whenever the event loop gets to answer; it
 * asks no dependency, so an outage does not restart every worker, but a loop blocked for good fails it) and
 * GET /metrics (Prometheus text) for orchestrators.
 */
export async function startWorkerHealthServer(options: WorkerHealthServerOptions): Promise<{ server: Server; port: number; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://worker').pathname;
    const answer = async (): Promise<void> => {
      if (request.method !== 'GET') {
        response.writeHead(405, { allow: 'GET' }).end();
      } else if (path === '/health') {
        // Read before the checks' awaits: a probe that waited through a block is answered in the loop's first turn after it.
        const eventLoop = options.eventLoop?.();
        const [redis, dependencies] = await Promise.all([options.checkRedis(), checkDependencies(options.dependencies ?? {})]);
        const ok = redis.ok && Object.values(dependencies).every((state) => state === 'ok') && (eventLoop?.ok ?? true);
        response.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ status: ok ? 'ok' : 'error', redis, ...dependencies, ...(eventLoop ? { eventLoop } : {}) }));
      } else if (path === '/live') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok' }));
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

async function checkDependencies(dependencies: Record<string, DependencyCheck>): Promise<Record<string, 'ok' | 'unavailable'>> {
  const entries = await Promise.all(
    Object.entries(dependencies).map(async ([name, check]) => [name, (await check().catch(() => false)) ? 'ok' : 'unavailable'] as const),
  );
  return Object.fromEntries(entries);
}

/** A program the worker starts (Chromium) is installed and executable; launching it on every probe would cost too much. */
export function executableCheck(path: string): DependencyCheck {
  return () => access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}
