import { Logger, Provider } from '@nestjs/common';
import { BillingService, creditsChargedCounter } from '@sift/billing';
import { loadConfig, researchDeadlineEnv } from '@sift/config';
import { PrismaClient, RequestLogRepository } from '@sift/persistence';
import { ResearchEvents, ResearchTaskFinisher, ResearchTaskRepository } from '@sift/research';
import type { Redis } from 'ioredis';
import { GATEWAY_CONFIG, type GatewayAppConfig, REDIS } from '../core/core.module';

export const RESEARCH_DEADLINES = Symbol('RESEARCH_DEADLINES');

const logger = new Logger('research');

/** The research task's owners (libs/research), built on the gateway's Prisma client and Redis connection. */
export const RESEARCH_PROVIDERS: Provider[] = [
  { provide: RESEARCH_DEADLINES, useFactory: () => loadConfig(researchDeadlineEnv) },
  {
    provide: ResearchTaskRepository,
    inject: [PrismaClient, GATEWAY_CONFIG],
    useFactory: (prisma: PrismaClient, config: GatewayAppConfig) => new ResearchTaskRepository(prisma, config.QUEUE_PREFIX),
  },
  {
    provide: ResearchEvents,
    inject: [REDIS, GATEWAY_CONFIG],
    useFactory: (redis: Redis, config: GatewayAppConfig) => new ResearchEvents(redis, config.QUEUE_PREFIX),
  },
  {
    provide: ResearchTaskFinisher,
    inject: [ResearchTaskRepository, ResearchEvents, BillingService, RequestLogRepository],
    useFactory: (tasks: ResearchTaskRepository, events: ResearchEvents, billing: BillingService, requestLogs: RequestLogRepository) =>
      new ResearchTaskFinisher(
        tasks,
        events,
        billing,
        requestLogs,
        (level, message, details) => (level === 'error' ? logger.error(`${message} ${JSON.stringify(details ?? {})}`) : logger.log(message)),
        (credits) => creditsChargedCounter().inc({ endpoint: 'research' }, credits),
      ),
  },
];
