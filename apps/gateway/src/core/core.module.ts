import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { coreEnv, fetchEnv, gatewayEnv, llmEnv, loadConfig, searchEnv } from '@sift/config';
import { createPrismaClient, PrismaClient } from '@sift/persistence';
import { createRedisConnection, JobQueue } from '@sift/queue';
import type { Redis } from 'ioredis';

export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
export const REDIS = Symbol('REDIS');

const gatewayConfigSchema = coreEnv.merge(gatewayEnv).merge(fetchEnv).merge(llmEnv).merge(searchEnv);
export type GatewayAppConfig = ReturnType<typeof gatewayConfigSchema.parse>;

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayAppConfig {
  return loadConfig(gatewayConfigSchema, env);
}

/** The gateway's infrastructure handles: one Prisma client, one Redis connection, one job queue producer. */
@Global()
@Module({
  providers: [
    { provide: GATEWAY_CONFIG, useFactory: () => loadGatewayConfig() },
    {
      provide: PrismaClient,
      inject: [GATEWAY_CONFIG],
      useFactory: (config: GatewayAppConfig) => createPrismaClient(config.DATABASE_URL),
    },
    {
      provide: REDIS,
      inject: [GATEWAY_CONFIG],
      useFactory: (config: GatewayAppConfig) => createRedisConnection(config.REDIS_URL),
    },
    {
      provide: JobQueue,
      inject: [REDIS, GATEWAY_CONFIG],
      useFactory: (redis: Redis, config: GatewayAppConfig) => new JobQueue({ connection: redis, prefix: config.QUEUE_PREFIX }),
    },
  ],
  exports: [GATEWAY_CONFIG, PrismaClient, REDIS, JobQueue],
})
export class CoreModule implements OnApplicationShutdown {
  constructor(
    private readonly prisma: PrismaClient,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly jobQueue: JobQueue,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([this.prisma.$disconnect(), this.jobQueue.close(), this.redis.quit()]);
  }
}
