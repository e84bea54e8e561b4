import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { createRedisConnection, defineJobHandler, RunningWorker, startWorker } from '@sift/queue';
import { defineJob, QueueName } from '@sift/queue-contracts';
import { callGateway } from '@sift/testing';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';

interface HealthBody {
  status: string;
  postgres: string;
  redis: string;
  queues: Record<string, { consumers: number; responsive: number }> | null;
}

const ProbeJob = defineJob({ name: 'health-probe', queue: QueueName.Extract, payloadSchema: z.object({}), resultSchema: z.object({}) });

// Issue 16 item 11: /health said "ok" while no worker consumed a queue.
describe('GET /health reports the consumers of each queue', () => {
  const prefix = `test-health-${randomUUID()}`;
  const connection = createRedisConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/5');
  let gateway: TestGateway;
  let worker: RunningWorker | undefined;

  beforeAll(async () => {
    gateway = await startTestGateway({ QUEUE_PREFIX: prefix });
  });
  afterAll(async () => {
    await worker?.close();
    await gateway?.close();
    await connection.quit();
  });

  it('is "degraded" (still 200) while a queue has no worker, and counts a worker once it consumes', async () => {
    const idle = await callGateway<HealthBody>(gateway.baseUrl, 'GET', '/health');
    expect(idle.status).toBe(200);
    expect(idle.body).toEqual({ status: 'degraded', postgres: 'ok', redis: 'ok', queues: { extract: { consumers: 0, responsive: 0 }, crawl: { consumers: 0, responsive: 0 }, research: { consumers: 0, responsive: 0 } } });

    worker = await startWorker({ queue: QueueName.Extract, definitions: [ProbeJob], handlers: [defineJobHandler(ProbeJob, async () => ({}))], concurrency: 1, connection, prefix });
    const staffed = await callGateway<HealthBody>(gateway.baseUrl, 'GET', '/health');
    expect(staffed.body.queues?.extract.consumers).toBeGreaterThanOrEqual(1);
    expect(staffed.body.queues?.extract.responsive).toBe(1);
    expect(staffed.body.queues?.crawl).toEqual({ consumers: 0, responsive: 0 });
    expect(staffed.body.status).toBe('degraded');
  });
});
