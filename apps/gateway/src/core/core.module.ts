import { Global, Inject, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { coreEnv, fetchEnv, gatewayEnv, llmEnv, loadConfig, modelsEnv, searchEnv, x402Env } from '@sift/config';
import { createPrismaClient, PrismaClient } from '@sift/persistence';
import { closeRedisConnection, createRedisConnection, JobQueue, waitForRedis } from '@sift/queue';
import { QueueName } from '@sift/queue-contracts';
import type { Redis } from 'ioredis';

export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
export const REDIS = Symbol('REDIS');

const gatewayConfigSchema = coreEnv.merge(gatewayEnv).merge(fetchEnv).merge(llmEnv).merge(modelsEnv).merge(searchEnv).merge(x402Env);
export type GatewayAppConfig = ReturnType<typeof gatewayConfigSchema.parse>;

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayAppConfig {
  return loadConfig(gatewayConfigSchema, env);
}

const REDIS_START_WAIT_MS = 5_000;

/** The gateway's infrastructure handles: one Prisma client, one Redis connection, one job queue producer. */
@Global()
@Module({
  providers: [
    { provide: GATEWAY_CONFIG, useFactory: () => loadGatewayConfig() },
    {
      provide: PrismaClient,
      inject: [GATEWAY_CONFIG],
      // Fail fast, as Redis: while Postgres cannot be reached, requests answer 503 instead of waiting for a connection.
      useFactory: (config: GatewayAppConfig) => createPrismaClient(config.DATABASE_URL, undefined, { failFast: true }),
    },
    {
      provide: REDIS,
      inject: [GATEWAY_CONFIG],
      // Fail fast: while Redis is down, requests that need it answer 503 at once instead of hanging until it returns.
      // Start-up waits briefly for the first connection, then goes on (/health reports Redis until it is back).
      useFactory: async (config: GatewayAppConfig) => {
        const redis = createRedisConnection(config.REDIS_URL, { failFast: true });
        // Reconnection errors are expected during an outage; /health and the 503s report it.
        redis.on('error', () => undefined);
        await waitForRedis(redis, REDIS_START_WAIT_MS);
        return redis;
      },
    },
    {
      provide: JobQueue,
      inject: [REDIS, GATEWAY_CONFIG],
      useFactory: (redis: Redis, config: GatewayAppConfig) => new JobQueue({ connection: redis, prefix: config.QUEUE_PREFIX }),
    },
  ],
  exports: [GATEWAY_CONFIG, PrismaClient, REDIS, JobQueue],
})
export class CoreModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly prisma: PrismaClient,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly jobQueue: JobQueue,
  ) {}

  /** The queues whose jobs requests wait for: subscribed before the first request, not by it. */
  async onApplicationBootstrap(): Promise<void> {
    await this.jobQueue.subscribe([QueueName.Extract, QueueName.Crawl], REDIS_START_WAIT_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([this.prisma.$disconnect(), this.jobQueue.close(), closeRedisConnection(this.redis)]);
  }
}
