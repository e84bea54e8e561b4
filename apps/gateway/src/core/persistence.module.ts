import { Global, Module } from '@nestjs/common';
import {
  AccountRepository,
  ApiKeyRepository,
  CreditLedgerRepository,
  DatabaseProbe,
  FeedbackRepository,
  MemberRepository,
  PrismaClient,
  ProjectRepository,
  RequestLogRepository,
} from '@sift/persistence';
import { RequestLogWriter } from '../request-log/request-log-writer.service';

const repositories = [
  AccountRepository,
  ApiKeyRepository,
  CreditLedgerRepository,
  DatabaseProbe,
  FeedbackRepository,
  MemberRepository,
  ProjectRepository,
  RequestLogRepository,
];

/** The repositories are framework-free classes; this module hands each the process's Prisma client (and batches request logs). */
@Global()
@Module({
  providers: [
    ...repositories.map((repository) => ({
      provide: repository,
      inject: [PrismaClient],
      useFactory: (prisma: PrismaClient) => new repository(prisma),
    })),
    RequestLogWriter,
  ],
  exports: [...repositories, RequestLogWriter],
})
export class PersistenceModule {}
