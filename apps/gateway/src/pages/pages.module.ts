import { Logger, Module } from '@nestjs/common';
import { PrismaClient } from '@sift/persistence';
import { egressPolicyFromConfig } from '@sift/safe-fetch';
import { GATEWAY_CONFIG, type GatewayAppConfig } from '../core/core.module';
import { configuredSearchProviders, LocalIndexProvider, SearchFanOut } from '@sift/search-index';
import { PageRepository } from '@sift/pages';

const searchLogger = new Logger('search');

/**
 * The stored pages (search-index owns their tables): the repository that stores and reads them, the local index,
 * and the search fan-out over it and the upstream providers.
 */
@Module({
  providers: [
    {
      provide: PageRepository,
      inject: [PrismaClient, GATEWAY_CONFIG],
      useFactory: (prisma: PrismaClient, config: GatewayAppConfig) => new PageRepository(prisma, { sharedIndex: config.SHARED_INDEX }),
    },
    { provide: LocalIndexProvider, inject: [PrismaClient], useFactory: (prisma: PrismaClient) => new LocalIndexProvider(prisma) },
    {
      provide: SearchFanOut,
      inject: [LocalIndexProvider, GATEWAY_CONFIG],
      useFactory: (localIndex: LocalIndexProvider, config: GatewayAppConfig) =>
        new SearchFanOut(configuredSearchProviders(localIndex, { searxngUrl: config.SEARXNG_URL, policy: egressPolicyFromConfig(config) }), (name, message) =>
          searchLogger.warn(`search provider ${name} failed: ${message}`),
        ),
    },
  ],
  exports: [PageRepository, LocalIndexProvider, SearchFanOut],
})
export class PagesModule {}
