import { randomUUID } from 'node:crypto';
import { createRedisConnection, JobQueue, type RunningWorker, startWorker } from '@sift/queue';
import { QueueName } from '@sift/queue-contracts';
import { createExtractUrlHandler } from '../extract-url.handler';
import type { ExtractionService } from '../extraction.service';

export interface ExtractQueue {
  jobQueue: JobQueue;
  worker: RunningWorker;
  /** Stops the worker and the queue and deletes the queue's keys. */
  close(): Promise<void>;
}

/** An extract queue of its own (unique prefix) on the test Redis, consumed by a worker running `service`. */
export async function startExtractQueue(service: ExtractionService, concurrency: number): Promise<ExtractQueue> {
  const prefix = `test-extractor-${randomUUID()}`;
  const connection = createRedisConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/5');
  const jobQueue = new JobQueue({ connection, prefix });
  const worker = await startWorker({ queue: QueueName.Extract, handlers: [createExtractUrlHandler(service)], concurrency, connection, prefix });
  return {
    jobQueue,
    worker,
    close: async () => {
      await worker.close();
      await jobQueue.close();
      const keys = await connection.keys(`${prefix}:*`);
      if (keys.length > 0) await connection.del(...keys);
      await connection.quit();
    },
  };
}
