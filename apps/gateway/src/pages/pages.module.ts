import { Module } from '@nestjs/common';
import { PrismaClient } from '@sift/persistence';
import { GATEWAY_CONFIG, type GatewayAppConfig } from '../core/core.module';
import { LocalIndexProvider, PageRepository } from '@sift/search-index';

/** The stored pages (search-index owns their tables): the repository that stores and reads them, and the local index. */
@Module({
  providers: [
    {
      provide: PageRepository,
      inject: [PrismaClient, GATEWAY_CONFIG],
      useFactory: (prisma: PrismaClient, config: GatewayAppConfig) => new PageRepository(prisma, { sharedIndex: config.SHARED_INDEX }),
    },
    { provide: LocalIndexProvider, inject: [PrismaClient], useFactory: (prisma: PrismaClient) => new LocalIndexProvider(prisma) },
  ],
  exports: [PageRepository, LocalIndexProvider],
})
export class PagesModule {}
