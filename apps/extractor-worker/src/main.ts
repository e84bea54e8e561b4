import { BrowserPool, browserPoolOptionsOf, RenderSessions } from '@sift/browser';
import { loadConfig } from '@sift/config';
import { createPrismaClient, DatabaseProbe } from '@sift/persistence';
import { DEPENDENCY_CHECK_TIMEOUT_MS, executableCheck, PagesAcquired, registerBrowserPoolGauge, registerPendingStoresGauge, runWorkerProcess, workerLogger } from '@sift/queue';
import { QueueName } from '@sift/queue-contracts';
import { egressPolicyFromConfig } from '@sift/safe-fetch';
import { PageRepository } from '@sift/pages';
import { ContentParsingPool, parsingLimitsOf } from '@sift/task-pool';
import { createExtractUrlHandler } from './extract-url.handler';
import { ExtractionService } from './extraction.service';
import { extractorEnv } from './extractor-env';

const log = workerLogger('extractor-worker');
async function main(): Promise<void> {
  const config = loadConfig(extractorEnv);
  const policy = egressPolicyFromConfig(config);
  const prisma = createPrismaClient(config.DATABASE_URL, undefined, { boundedStatements: true });
  const browser = new BrowserPool(browserPoolOptionsOf(config, policy));
  // Parsing threads are started (and their modules loaded) before the first job, not by it.
  const parser = await ContentParsingPool.start({
    threads: config.EXTRACT_PARSE_THREADS,
    ...parsingLimitsOf(config),
    maxPdfPages: config.PDF_MAX_PAGES,
    onThreadError: (error) => log('error', 'a parsing thread failed outside a task', { error: error.message }),
  });
  // A page's index entry is prepared by the parse that makes it, in the parsing threads; `prepare` serves the rest.
  const pages = new PageRepository(prisma, { sharedIndex: config.SHARED_INDEX, prepare: (input) => parser.indexedPage(input) });
  const acquired = new PagesAcquired();
  // A request's URLs render in one browser context of the request's own (its id), as a crawl's pages do.
  const renderSessions = new RenderSessions(browser);
  const extractionService = new ExtractionService({
    policy,
    browser,
    renderSessions,
    parser,
    pages,
    onAcquired: acquired.count,
    onError: (error, url) => log('error', 'extraction failed unexpectedly', { url, error: error instanceof Error ? error.message : String(error) }),
  });
  await runWorkerProcess({
    service: 'extractor-worker',
    queue: QueueName.Extract,
    handlers: [createExtractUrlHandler(extractionService)],
    concurrency: config.EXTRACT_CONCURRENCY,
    redisUrl: config.REDIS_URL,
    queuePrefix: config.QUEUE_PREFIX,
    stallRecovery: { lockDurationMs: config.QUEUE_LOCK_DURATION_MS, stalledIntervalMs: config.QUEUE_STALLED_INTERVAL_MS },
    dependencies: { postgres: () => new DatabaseProbe(prisma).answers(DEPENDENCY_CHECK_TIMEOUT_MS), chromium: executableCheck(config.CHROMIUM_PATH) },
    registerMetrics: (registry) => {
      registerBrowserPoolGauge(registry, () => browser.openBrowserCount);
      acquired.register(registry);
      registerPendingStoresGauge(registry, () => extractionService.storesPending);
    },
    healthPort: config.EXTRACTOR_PORT,
    startedDetails: { parseThreads: parser.threads },
    // Running extractions, and the stores of those that answered first, finish; only then do the browser and the
    // database connection go.
    release: async () => {
      await extractionService.storesSettled();
      return Promise.allSettled([renderSessions.close().then(() => browser.close()), parser.close(), prisma.$disconnect()]);
    },
  });
}

main().catch((error: unknown) => {
  log('error', 'extractor worker failed to start', { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
