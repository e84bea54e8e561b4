import { BrowserPool, browserPoolOptionsOf } from '@sift/browser';
import { loadConfig } from '@sift/config';
import { configuredModels, endpointUrl, modelFallbacksCounter } from '@sift/models';
import { createPrismaClient, DatabaseProbe, type PrismaClient } from '@sift/persistence';
import {
  DEPENDENCY_CHECK_TIMEOUT_MS,
  executableCheck,
  observeUpstreamRequests,
  PagesAcquired,
  registerBrowserPoolGauge,
  runWorkerProcess,
  workerLogger,
} from '@sift/queue';
import { QueueName } from '@sift/queue-contracts';
import { type EgressPolicy, egressPolicyFromConfig } from '@sift/safe-fetch';
import { PageRepository } from '@sift/pages';
import { ChunkEmbedder, ChunkEmbeddingLoop, ChunkVectorStore } from '@sift/search-index';
import { ContentParsingPool, parsingLimitsOf } from '@sift/task-pool';
import { createExtractUrlHandler } from './extract-url.handler';
import { ExtractionService } from './extraction.service';
import { type ExtractorConfig, extractorEnv } from './extractor-env';

const log = workerLogger('extractor-worker');

/**
 * The background embedder of the stored chunks (docs/models.md), when EMBEDDINGS_BASE_URL is set: this worker stores
 * the fetched pages, so it gives their chunks vectors off the request path. Every replica runs one; the lease in
 * Postgres lets one of them embed at a time.
 */
function embeddingLoopOf(config: ExtractorConfig, prisma: PrismaClient, policy: EgressPolicy): ChunkEmbeddingLoop | undefined {
  const { embeddings } = configuredModels(config, { policy, log: (level, message) => log(level === 'warn' ? 'warn' : 'info', message) });
  if (!embeddings) return undefined;
  const store = new ChunkVectorStore(prisma);
  return new ChunkEmbeddingLoop(new ChunkEmbedder(store, embeddings), store, {
    // A failing model is logged by its client, once per outage; a pass it stops is tried again a minute later.
    onPass: (pass) => {
      if (pass.embedded > 0) log('info', 'embedded stored chunks', { embedded: pass.embedded, pending: pass.pending, model: embeddings.model, dimension: pass.dimension });
    },
    onError: (error) => log('error', 'embedding pass failed', { error: error instanceof Error ? error.message : String(error) }),
  });
}

async function main(): Promise<void> {
  const config = loadConfig(extractorEnv);
  const policy = egressPolicyFromConfig(config);
  const prisma = createPrismaClient(config.DATABASE_URL);
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
  const embeddingLoop = embeddingLoopOf(config, prisma, policy);
  const extractionService = new ExtractionService({
    policy,
    browser,
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
      if (embeddingLoop) {
        // The model clients count their failures in the default registry; the worker's /metrics serves its own.
        registry.registerMetric(modelFallbacksCounter());
        observeUpstreamRequests(registry, { embeddings: endpointUrl(config.EMBEDDINGS_BASE_URL, 'embeddings') });
      }
    },
    healthPort: config.EXTRACTOR_PORT,
    startedDetails: { parseThreads: parser.threads, embedding: embeddingLoop ? config.EMBEDDINGS_MODEL.trim() : null },
    // Running extractions and the embedding batch under way finish first; only then do the browser and the database connection go.
    release: async () => {
      await embeddingLoop?.stop();
      return Promise.allSettled([browser.close(), parser.close(), prisma.$disconnect()]);
    },
  });
  embeddingLoop?.start();
}

main().catch((error: unknown) => {
  log('error', 'extractor worker failed to start', { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
