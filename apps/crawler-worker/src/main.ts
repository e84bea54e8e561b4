import { BrowserPool, browserPoolOptionsOf } from '@sift/browser';
import { loadConfig } from '@sift/config';
import { createPrismaClient, DatabaseProbe } from '@sift/persistence';
import { DEPENDENCY_CHECK_TIMEOUT_MS, executableCheck, PagesAcquired, registerBrowserPoolGauge, runWorkerProcess, workerLogger } from '@sift/queue';
import { QueueName } from '@sift/queue-contracts';
import { egressPolicyFromConfig } from '@sift/safe-fetch';
import { pageOwnerOf, PageRepository } from '@sift/pages';
import { ContentParsingPool, parsingLimitsOf } from '@sift/task-pool';
import { createDefaultCrawlDependencies, DEFAULT_HOST_SCHEDULER_SETTINGS, HostScheduler, HostSchedulerMetrics, RobotsCache } from './crawl';
import { createCrawlHandlers } from './crawl.handler';
import { crawlerEnv } from './crawler-env';

const log = workerLogger('crawler-worker');
async function main(): Promise<void> {
  const config = loadConfig(crawlerEnv);
  const policy = egressPolicyFromConfig(config);
  const prisma = createPrismaClient(config.DATABASE_URL, undefined, { boundedStatements: true });
  // One robots.txt cache and one browser pool (launched on the first page that needs rendering) for every crawl of this worker.
  const robotsCache = new RobotsCache();
  const browser = new BrowserPool(browserPoolOptionsOf(config, policy));
  // One politeness gate per host for every crawl of this worker: two crawls of one site share its limit.
  const hostMetrics = new HostSchedulerMetrics();
  const hostScheduler = new HostScheduler(
    {
      initialConcurrentPerHost: config.CRAWL_HOST_START_CONCURRENCY,
      maxConcurrentPerHost: config.CRAWL_HOST_MAX_CONCURRENCY,
      maxCrawlDelayMs: DEFAULT_HOST_SCHEDULER_SETTINGS.maxCrawlDelayMs,
    },
    hostMetrics.count,
  );
  // Extraction threads are started (and their modules loaded) before the first job, not by it.
  const extraction = await ContentParsingPool.start({
    threads: config.CRAWL_EXTRACTION_THREADS,
    ...parsingLimitsOf(config),
    onThreadError: (error) => log('error', 'an extraction thread failed outside a task', { error: error.message }),
  });
  // A page's index entry is prepared by the parse that makes it, in the same threads; `prepare` serves the rest.
  const pages = new PageRepository(prisma, { sharedIndex: config.SHARED_INDEX, prepare: (input) => extraction.indexedPage(input) });
  const acquired = new PagesAcquired();
  await runWorkerProcess({
    service: 'crawler-worker',
    queue: QueueName.Crawl,
    handlers: createCrawlHandlers((payload) =>
      createDefaultCrawlDependencies({
        policy,
        robotsCache,
        hostScheduler,
        browser,
        extraction,
        // The repository keeps nothing for an account with zero data retention (and so gives nothing back).
        store: pages,
        owner: pageOwnerOf(payload.accountId),
        settings: { maxRenderingPages: Math.max(1, Math.min(config.CRAWL_RENDER_PAGES, config.BROWSER_PAGES)) },
        onAcquired: acquired.count,
        onError: (error, url) => log('error', 'a crawled page failed unexpectedly', { url, error: error instanceof Error ? error.message : String(error) }),
      }),
    ),
    concurrency: config.CRAWL_CONCURRENCY,
    redisUrl: config.REDIS_URL,
    queuePrefix: config.QUEUE_PREFIX,
    stallRecovery: { lockDurationMs: config.QUEUE_LOCK_DURATION_MS, stalledIntervalMs: config.QUEUE_STALLED_INTERVAL_MS },
    dependencies: { postgres: () => new DatabaseProbe(prisma).answers(DEPENDENCY_CHECK_TIMEOUT_MS), chromium: executableCheck(config.CHROMIUM_PATH) },
    registerMetrics: (registry) => {
      registerBrowserPoolGauge(registry, () => browser.openBrowserCount);
      acquired.register(registry);
      hostMetrics.register(registry, hostScheduler);
    },
    healthPort: config.CRAWLER_PORT,
    startedDetails: { extractionThreads: extraction.threads },
    // Running crawls finish first; only then do the browser, the threads and the database connection go.
    release: () => Promise.allSettled([browser.close(), extraction.close(), prisma.$disconnect()]),
  });
}

main().catch((error: unknown) => {
  log('error', 'crawler worker failed to start', { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
