import { Module } from '@nestjs/common';
import { PrismaClient, UsageReportRepository } from '@sift/persistence';
import { OperatorConsoleGuard } from './operator-console.guard';
import { UsageConsoleApiController } from './usage-console-api.controller';
import { UsageConsoleController } from './usage-console.controller';
import { UsageConsoleService } from './usage-console.service';

/** The operators' usage console at /admin/console: a page with charts, and the read-only data it shows. */
@Module({
  controllers: [UsageConsoleController, UsageConsoleApiController],
  providers: [
    { provide: UsageReportRepository, inject: [PrismaClient], useFactory: (prisma: PrismaClient) => new UsageReportRepository(prisma) },
    UsageConsoleService,
    OperatorConsoleGuard,
  ],
})
export class ConsoleModule {}
