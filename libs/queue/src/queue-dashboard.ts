import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { QueueName } from '@sift/queue-contracts';
import { DEFAULT_QUEUE_PREFIX } from './queue-prefix';

export interface QueueDashboard {
  /** An Express router serving the dashboard under `basePath`. */
  router: ReturnType<ExpressAdapter['getRouter']>;
}

/**
 * Bull Board over every Sift queue, for operators: waiting, active, failed jobs, their payloads and errors, retry
 * and clean. Its Queue handles share the given connection (closing it is the caller's), and the caller puts
 * authentication in front of it.
 */
export function createQueueDashboard(options: { connection: Redis; prefix?: string; basePath: string }): QueueDashboard {
  const queues = Object.values(QueueName).map((name) => new Queue(name, { connection: options.connection, prefix: options.prefix ?? DEFAULT_QUEUE_PREFIX }));
  // Redis errors during an outage are reported by /health; the dashboard shows them when opened.
  for (const queue of queues) queue.on('error', () => undefined);
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(options.basePath);
  createBullBoard({ queues: queues.map((queue) => new BullMQAdapter(queue)), serverAdapter });
  return { router: serverAdapter.getRouter() };
}
