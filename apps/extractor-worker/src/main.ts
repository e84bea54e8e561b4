import { BrowserPool } from '@sift/browser';
import { loadConfig } from '@sift/config';
import { createPrismaClient } from '@sift/persistence';
import { checkRedis, createRedisConnection, startWorker, startWorkerHealthServer } from '@sift/queue';
import { QueueName } from '@sift/queue-contracts';
import { egressPolicyFromEnv } from '@sift/safe-fetch';
import { DocumentStore } from '@sift/search-index';
import { createExtractUrlHandler } from './extract-url.handler';
import { ExtractionService } from './extraction.service';
import { extractorEnv } from './extractor-env';

function log(level: 'info' | 'error', message: string, details: Record<string, unknown> = {}): void {
  process.stderr.write(`${JSON.stringify({ level, service: 'extractor-worker', message, ...details })}\n`);
}

async function main(): Promise<void> {
  const config = loadConfig(extractorEnv);
  const policy = egressPolicyFromEnv();
  const connection = createRedisConnection(config.REDIS_URL);
  const prisma = createPrismaClient(config.DATABASE_URL);
  const browser = new BrowserPool({ policy, executablePath: config.CHROMIUM_PATH, maxConcurrentPages: config.BROWSER_PAGES });
  const extractionService = new ExtractionService({
    policy,
    browser,
    documentStore: new DocumentStore(prisma),
    onError: (error, url) => log('error', 'extraction failed unexpectedly', { url, error: error instanceof Error ? error.message : String(error) }),
  });

  // Refuses to start (and exits non-zero) when the extract queue's jobs are not covered exactly once.
  const worker = await startWorker({
    queue: QueueName.Extract,
    handlers: [createExtractUrlHandler(extractionService)],
    concurrency: config.EXTRACT_CONCURRENCY,
    connection,
    prefix: config.QUEUE_PREFIX,
    onError: (error) => log('error', 'worker error', { error: error.message }),
  });
  const health = await startWorkerHealthServer({
    port: config.EXTRACTOR_PORT,
    checkRedis: () => checkRedis(connection),
    metrics: () => worker.metrics.text(),
    metricsContentType: worker.metrics.contentType,
  });
  log('info', 'extractor worker started', { concurrency: config.EXTRACT_CONCURRENCY, port: health.port });

  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log('info', 'shutting down', { signal });
    // Running extractions finish first; only then do the browser and connections go.
    await worker.close();
    await Promise.allSettled([health.close(), browser.close(), prisma.$disconnect()]);
    await connection.quit();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  log('error', 'extractor worker failed to start', { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
