import { Logger, Module } from '@nestjs/common';
import { configuredModels, type ConfiguredModels, RerankService } from '@sift/models';
import { PrismaClient } from '@sift/persistence';
import { egressPolicyFromConfig } from '@sift/safe-fetch';
import { GATEWAY_CONFIG, type GatewayAppConfig } from '../core/core.module';
import { ChunkVectorStore, configuredSearchProviders, DenseChunkIndex, LocalIndexProvider, SearchFanOut } from '@sift/search-index';
import { PageRepository } from '@sift/pages';

const searchLogger = new Logger('search');
const modelsLogger = new Logger('models');

/** The operator's embedding and reranking models (EMBEDDINGS_*, RERANK_*): each absent when its base URL is unset. */
export const MODELS = Symbol('MODELS');

/**
 * The stored pages (search-index owns their tables): the repository that stores and reads them, the local index
 * (ranking by meaning as well when an embedding model is configured), and the search fan-out over it and the upstream
 * providers. The model clients live here too: the local index and the search pipeline share them.
 */
@Module({
  providers: [
    {
      provide: PageRepository,
      inject: [PrismaClient, GATEWAY_CONFIG],
      useFactory: (prisma: PrismaClient, config: GatewayAppConfig) => new PageRepository(prisma, { sharedIndex: config.SHARED_INDEX }),
    },
    {
      provide: MODELS,
      inject: [GATEWAY_CONFIG],
      useFactory: (config: GatewayAppConfig): ConfiguredModels =>
        configuredModels(config, { policy: egressPolicyFromConfig(config), log: (level, message) => modelsLogger[level](message) }),
    },
    { provide: RerankService, inject: [MODELS], useFactory: (models: ConfiguredModels) => models.reranker },
    {
      provide: LocalIndexProvider,
      inject: [PrismaClient, MODELS],
      useFactory: (prisma: PrismaClient, models: ConfiguredModels) =>
        new LocalIndexProvider(prisma, {
          // Without an embedding model the index ranks by words alone and never touches the vectors' table.
          ...(models.embeddings
            ? {
                dense: new DenseChunkIndex(new ChunkVectorStore(prisma), models.embeddings, {
                  queryTimeoutMs: models.embeddingsTimeoutMs,
                  log: (message) => modelsLogger.warn(message),
                }),
              }
            : {}),
        }),
    },
    {
      provide: SearchFanOut,
      inject: [LocalIndexProvider, GATEWAY_CONFIG],
      useFactory: (localIndex: LocalIndexProvider, config: GatewayAppConfig) =>
        new SearchFanOut(configuredSearchProviders(localIndex, { searxngUrl: config.SEARXNG_URL, policy: egressPolicyFromConfig(config) }), (name, message) =>
          searchLogger.warn(`search provider ${name} failed: ${message}`),
        ),
    },
  ],
  exports: [PageRepository, LocalIndexProvider, SearchFanOut, MODELS, RerankService],
})
export class PagesModule {}
