import { z } from 'zod';
import { defineJob, QueueName } from '@sift/queue-contracts';

/**
 * A test-only job: sleeps `ms` and answers its id; the fault tests kill the worker while it sleeps. With `busy` it
 * spins instead, blocking the worker's event loop for `ms` as a job that runs synchronously would.
 */
export const SleeperJob = defineJob({
  name: 'sleeper',
  queue: QueueName.Extract,
  payloadSchema: z.object({ id: z.string(), ms: z.number().int().min(0), busy: z.boolean().optional() }),
  resultSchema: z.object({ id: z.string() }),
});
