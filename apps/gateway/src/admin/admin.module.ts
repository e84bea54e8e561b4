import { Module } from '@nestjs/common';
import { PagesModule } from '../pages/pages.module';
import { AdminAccountsController } from './admin-accounts.controller';
import { AdminAuditController } from './admin-audit.controller';
import { AdminIndexController } from './admin-index.controller';
import { AdminIndexJobs } from './admin-index-jobs.service';
import { AdminJobsController } from './admin-jobs.controller';
import { AdminKeysController } from './admin-keys.controller';
import { AdminMembersController } from './admin-members.controller';
import { adminProviders } from './admin-services.provider';
import { OperatorGuard } from './operator.guard';

/**
 * The admin API under /admin (Swagger tag admin): what `npm run admin` does, behind the operator credential
 * (ADMIN_TOKEN), over the same @sift/admin services and onto the same audit trail.
 */
@Module({
  imports: [PagesModule],
  controllers: [AdminAccountsController, AdminKeysController, AdminMembersController, AdminIndexController, AdminJobsController, AdminAuditController],
  providers: [...adminProviders, AdminIndexJobs, OperatorGuard],
  exports: [OperatorGuard],
})
export class AdminModule {}
