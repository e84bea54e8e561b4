import { coreEnv, loadConfig } from '@sift/config';
import { checkRedis, createRedisConnection, startWorker, startWorkerHealthServer } from '@sift/queue';
import { QueueName } from '@sift/queue-contracts';
import { z } from 'zod';
import { createResearchHandlers } from './research.handler';

const researchEnv = coreEnv.extend({
  /** Port of the worker's /health and /metrics endpoints. */
  RESEARCH_PORT: z.coerce.number().int().min(0).default(3103),
});

function log(level: 'info' | 'error', message: string, details: Record<string, unknown> = {}): void {
  process.stderr.write(`${JSON.stringify({ level, service: 'research-worker', message, ...details })}\n`);
}

async function main(): Promise<void> {
  const config = loadConfig(researchEnv);
  const connection = createRedisConnection(config.REDIS_URL);
  const worker = await startWorker({
    queue: QueueName.Research,
    handlers: createResearchHandlers(),
    concurrency: 1,
    connection,
    prefix: config.QUEUE_PREFIX,
    onError: (error) => log('error', 'worker error', { error: error.message }),
  });
  const health = await startWorkerHealthServer({
    port: config.RESEARCH_PORT,
    checkRedis: () => checkRedis(connection),
    metrics: () => worker.metrics.text(),
    metricsContentType: worker.metrics.contentType,
  });
  log('info', 'research worker started', { port: health.port });
  const shutdown = async (): Promise<void> => {
    await worker.close();
    await health.close();
    await connection.quit();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
}

main().catch((error: unknown) => {
  log('error', 'research worker failed to start', { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
