import type { Redis } from 'ioredis';
import type { JobDefinition, QueueName } from '@sift/queue-contracts';
import type { JobHandler } from '../job-handler';
import { JobQueue } from '../job-queue';
import { createRedisConnection } from '../redis-connection';
import { type RunningWorker, startWorker } from '../start-worker';

/** A producer and a worker of one queue under a prefix of their own (unique per test file), on the test Redis. */
export interface QueueUnderTest {
  connection: Redis;
  jobQueue: JobQueue;
  worker: RunningWorker;
  /** Stops the worker and the producer and deletes every key under the prefix. */
  close(): Promise<void>;
}

export async function startQueueUnderTest(options: {
  prefix: string;
  queue: QueueName;
  handlers: readonly JobHandler[];
  /** The jobs the worker covers; defaults to every job of `queue` in the contracts catalogue (startWorker). */
  definitions?: readonly JobDefinition<unknown, unknown>[];
  concurrency: number;
}): Promise<QueueUnderTest> {
  const { prefix } = options;
  const connection = createRedisConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/5');
  const jobQueue = new JobQueue({ connection, prefix });
  const worker = await startWorker({ ...options, connection });
  return {
    connection,
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
