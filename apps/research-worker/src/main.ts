import { BillingService, creditsChargedCounter } from '@sift/billing';
import { loadConfig } from '@sift/config';
import { OpenAiCompatibleClient } from '@sift/llm';
import { endpointUrl, modelFallbacksCounter } from '@sift/models';
import { AccountRepository, ApiKeyRepository, createPrismaClient, CreditLedgerRepository, DatabaseProbe, ProjectRepository, RequestLogRepository } from '@sift/persistence';
import { closeRedisConnection, createRedisConnection, DEPENDENCY_CHECK_TIMEOUT_MS, JobQueue, observeUpstreamRequests, runWorkerProcess, workerLogger } from '@sift/queue';
import { QueueName } from '@sift/queue-contracts';
import { ResearchEvents, ResearchTaskFinisher, ResearchTaskRepository, runResearch } from '@sift/research';
import { egressPolicyFromConfig } from '@sift/safe-fetch';
import { configuredSearchProviders, SearchFanOut } from '@sift/search-index';
import { createResearchHandlers } from './research.handler';
import { researchDependenciesFor } from './research-dependencies';
import { researchEnv } from './research-env';
import { researchIndexOf } from './research-index';
import { ResearchSweep } from './research-sweep';
import { ResearchTaskRunner } from './research-task-runner';

const log = workerLogger('research-worker');
async function main(): Promise<void> {
  const config = loadConfig(researchEnv);
  const policy = egressPolicyFromConfig(config);
  const prisma = createPrismaClient(config.DATABASE_URL, undefined, { boundedStatements: true });
  // Publishing events and enqueueing reads wait through a Redis outage, as the worker's own connection does.
  const redis = createRedisConnection(config.REDIS_URL);
  const jobQueue = new JobQueue({ connection: redis, prefix: config.QUEUE_PREFIX });
  const tasks = new ResearchTaskRepository(prisma, config.QUEUE_PREFIX);
  const events = new ResearchEvents(redis, config.QUEUE_PREFIX);
  const billing = new BillingService({
    ledger: new CreditLedgerRepository(prisma),
    accounts: new AccountRepository(prisma),
    apiKeys: new ApiKeyRepository(prisma),
    projects: new ProjectRepository(prisma),
  });
  // The worker's registry exists once the worker process runs; tasks settle only after that.
  let creditsCharged: ReturnType<typeof creditsChargedCounter> | undefined;
  const finisher = new ResearchTaskFinisher(tasks, events, billing, new RequestLogRepository(prisma), log, (credits) =>
    creditsCharged?.inc({ endpoint: 'research' }, credits),
  );
  const { localIndex, reranker, embeddingModel, embeddingLoop } = researchIndexOf(config, prisma, policy, (level, message) => log(level === 'warn' ? 'warn' : 'info', message));
  const fanOut = new SearchFanOut(configuredSearchProviders(localIndex, { searxngUrl: config.SEARXNG_URL, policy }), (name, message) =>
    log('error', 'search provider failed', { provider: name, error: message }),
  );
  const llm = config.LLM_BASE_URL
    ? new OpenAiCompatibleClient({ baseUrl: config.LLM_BASE_URL, model: config.LLM_MODEL, apiKey: config.LLM_API_KEY || undefined, policy })
    : undefined;
  const world = { fanOut, jobQueue, llm, reranker, maxCacheAgeMs: config.DOCUMENT_CACHE_SECONDS * 1000 };
  const runner = new ResearchTaskRunner({ tasks, events, finisher, runResearch, dependenciesFor: (task) => researchDependenciesFor(world, task), log });

  const sweeper = new ResearchSweep({ tasks, finisher, jobQueue, requeueAfterMs: config.RESEARCH_SWEEP_INTERVAL_MS, log });
  const sweep = setInterval(() => void sweeper.sweep(), config.RESEARCH_SWEEP_INTERVAL_MS);

  await runWorkerProcess({
    service: 'research-worker',
    queue: QueueName.Research,
    handlers: createResearchHandlers(runner),
    concurrency: config.RESEARCH_CONCURRENCY,
    redisUrl: config.REDIS_URL,
    queuePrefix: config.QUEUE_PREFIX,
    stallRecovery: { lockDurationMs: config.QUEUE_LOCK_DURATION_MS, stalledIntervalMs: config.QUEUE_STALLED_INTERVAL_MS },
    dependencies: { postgres: () => new DatabaseProbe(prisma).answers(DEPENDENCY_CHECK_TIMEOUT_MS) },
    healthPort: config.RESEARCH_PORT,
    registerMetrics: (registry) => {
      creditsCharged = creditsChargedCounter(registry);
      if (embeddingModel || reranker.enabled) {
        // The model clients count their failures in the default registry; the worker's /metrics serves its own.
        registry.registerMetric(modelFallbacksCounter());
        observeUpstreamRequests(registry, {
          embeddings: embeddingModel ? endpointUrl(config.EMBEDDINGS_BASE_URL, 'embeddings') : '',
          rerank: reranker.enabled ? endpointUrl(config.RERANK_BASE_URL, 'rerank') : '',
        });
      }
    },
    startedDetails: { writer: llm ? 'llm' : 'extractive', searxng: Boolean(config.SEARXNG_URL), embeddings: embeddingModel, reranker: reranker.enabled },
    release: async () => {
      clearInterval(sweep);
      // The embedding batch under way finishes first: it writes through the database connection.
      await embeddingLoop?.stop();
      return Promise.allSettled([jobQueue.close(), closeRedisConnection(redis), prisma.$disconnect()]);
    },
  });
  embeddingLoop?.start();
}

main().catch((error: unknown) => {
  log('error', 'research worker failed to start', { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
