import { type OwnRedisServer, startOwnRedisServer } from '@sift/testing';
import type { Redis } from 'ioredis';
import { createRedisConnection } from './redis-connection';
import { checkRedis } from './redis-health';
import { executableCheck, startWorkerHealthServer } from './worker-health-server';

jest.setTimeout(30_000);

async function health(port: number): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${port}/health`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

// A worker's GET /health against a real Redis that the test stops, and the checks of what else a worker needs.
describe('worker health server', () => {
  // A Redis of this test's own (the shared one is never stopped), without persistence; stopped here if a test failed
  // before it stopped it itself.
  let redis: OwnRedisServer | undefined;

  afterEach(() => {
    redis?.stop();
    redis = undefined;
  });

  it('reports unhealthy (503) once its Redis is unreachable', async () => {
    const own = await startOwnRedisServer();
    redis = own;
    const connection: Redis = createRedisConnection(own.url);
    connection.on('error', () => undefined);
    const server = await startWorkerHealthServer({ port: 0, host: '127.0.0.1', checkRedis: () => checkRedis(connection), metrics: async () => '', metricsContentType: 'text/plain' });
    try {
      expect(await health(server.port)).toMatchObject({ status: 200, body: { status: 'ok', redis: { ok: true } } });

      own.stop();
      redis = undefined;

      const down = await health(server.port);
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ status: 'error', redis: { ok: false } });
    } finally {
      connection.disconnect();
      await server.close();
    }
  });

  it('reports each dependency by name, and 503 when one is unavailable', async () => {
    const server = await startWorkerHealthServer({
      port: 0,
      host: '127.0.0.1',
      checkRedis: async () => ({ ok: true, latencyMs: 0 }),
      dependencies: { postgres: async () => true, chromium: executableCheck('/usr/bin/chromium') },
      metrics: async () => '',
      metricsContentType: 'text/plain',
    });
    const missing = await startWorkerHealthServer({
      port: 0,
      host: '127.0.0.1',
      checkRedis: async () => ({ ok: true, latencyMs: 0 }),
      dependencies: { postgres: () => Promise.reject(new Error('connection refused')), chromium: executableCheck('/nonexistent/chromium') },
      metrics: async () => '',
      metricsContentType: 'text/plain',
    });
    try {
      expect(await health(server.port)).toEqual({ status: 200, body: { status: 'ok', redis: { ok: true, latencyMs: 0 }, postgres: 'ok', chromium: 'ok' } });
      expect(await health(missing.port)).toMatchObject({ status: 503, body: { status: 'error', postgres: 'unavailable', chromium: 'unavailable' } });
    } finally {
      await Promise.all([server.close(), missing.close()]);
    }
  });
});
