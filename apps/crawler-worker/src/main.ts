import { BrowserPool } from '@sift/browser';
import { loadConfig } from '@sift/config';
import { createPrismaClient } from '@sift/persistence';
import { checkRedis, createRedisConnection, startWorker, startWorkerHealthServer } from '@sift/queue';
import { QueueName } from '@sift/queue-contracts';
import { egressPolicyFromEnv } from '@sift/safe-fetch';
import { DocumentStore } from '@sift/search-index';
import { createDefaultCrawlDependencies, PageExtractionPool, RobotsCache } from './crawl';
import { createCrawlHandlers } from './crawl.handler';
import { crawlerEnv } from './crawler-env';

function log(level: 'info' | 'error', message: string, details: Record<string, unknown> = {}): void {
  process.stderr.write(`${JSON.stringify({ level, service: 'crawler-worker', message, ...details })}\n`);
}

async function main(): Promise<void> {
  const config = loadConfig(crawlerEnv);
  const policy = egressPolicyFromEnv();
  const connection = createRedisConnection(config.REDIS_URL);
  const prisma = createPrismaClient(config.DATABASE_URL);
  const documents = new DocumentStore(prisma);
  // One robots.txt cache and one browser pool (launched on the first advanced crawl) for every crawl of this worker.
  const robotsCache = new RobotsCache();
  const browser = new BrowserPool({ policy, executablePath: config.CHROMIUM_PATH, maxConcurrentPages: config.BROWSER_PAGES });
  // Extraction threads are started (and their modules loaded) before the first job, not by it.
  const extraction = await PageExtractionPool.start(config.CRAWL_EXTRACTION_THREADS, (cause) =>
    log('error', 'an extraction thread died and was replaced', { error: cause.message }),
  );
  if (extraction.fallbackReason) log('error', 'extraction threads unavailable; extracting inline', { error: extraction.fallbackReason });
  const worker = await startWorker({
    queue: QueueName.Crawl,
    handlers: createCrawlHandlers((payload) =>
      createDefaultCrawlDependencies({
        policy,
        robotsCache,
        browser,
        extraction,
        storePage: payload.storeDocuments
          ? async (page) => {
              await documents.save({ ...page, source: 'crawl' });
            }
          : undefined,
      }),
    ),
    concurrency: config.CRAWL_CONCURRENCY,
    connection,
    prefix: config.QUEUE_PREFIX,
    onError: (error) => log('error', 'worker error', { error: error.message }),
  });
  const health = await startWorkerHealthServer({
    port: config.CRAWLER_PORT,
    checkRedis: () => checkRedis(connection),
    metrics: () => worker.metrics.text(),
    metricsContentType: worker.metrics.contentType,
  });
  log('info', 'crawler worker started', { concurrency: config.CRAWL_CONCURRENCY, extractionThreads: extraction.threads, port: health.port });

  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log('info', 'shutting down', { signal });
    // Running crawls finish first; only then do the browser and connections go.
    await worker.close();
    await Promise.allSettled([health.close(), browser.close(), extraction.close(), prisma.$disconnect()]);
    await connection.quit();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  log('error', 'crawler worker failed to start', { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
