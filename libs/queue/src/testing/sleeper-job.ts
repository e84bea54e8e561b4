import { z } from 'zod';
import { defineJob, QueueName } from '@sift/queue-contracts';

/** A test-only job: sleeps `ms` and answers its id; the fault tests kill the worker while it sleeps. */
export const SleeperJob = defineJob({
  name: 'sleeper',
  queue: QueueName.Extract,
  payloadSchema: z.object({ id: z.string(), ms: z.number().int().min(0) }),
  resultSchema: z.object({ id: z.string() }),
});
