import { coreEnv, loadConfig } from '@sift/config';
import { runWorkerProcess, workerLogger } from '@sift/queue';
import { QueueName } from '@sift/queue-contracts';
import { z } from 'zod';
import { createResearchHandlers } from './research.handler';

const researchEnv = coreEnv.extend({
  /** Port of the worker's /health and /metrics endpoints. */
  RESEARCH_PORT: z.coerce.number().int().min(0).default(3103),
});

async function main(): Promise<void> {
  const config = loadConfig(researchEnv);
  await runWorkerProcess({
    service: 'research-worker',
    queue: QueueName.Research,
    handlers: createResearchHandlers(),
    concurrency: 1,
    redisUrl: config.REDIS_URL,
    queuePrefix: config.QUEUE_PREFIX,
    stallRecovery: { lockDurationMs: config.QUEUE_LOCK_DURATION_MS, stalledIntervalMs: config.QUEUE_STALLED_INTERVAL_MS },
    healthPort: config.RESEARCH_PORT,
  });
}

main().catch((error: unknown) => {
  workerLogger('research-worker')('error', 'research worker failed to start', { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
