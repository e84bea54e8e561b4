import { Module } from '@nestjs/common';
import { AdminModule } from './admin/admin.module';
import { AccountPlaneModule } from './account-plane.module';
import { AuthModule } from './caller/auth.module';
import { BillingModule } from './billing/billing.module';
import { DataPlaneModule } from './data-plane.module';
import { CoreModule } from './core/core.module';
import { PersistenceModule } from './core/persistence.module';
import { HealthController } from './health/health.controller';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { RequestLogModule } from './request-log/request-log.module';
import { MetricsModule } from './metrics/metrics.module';
import { PaymentsModule } from './payments/payments.module';
import { ConsoleModule } from './console/console.module';

@Module({
  imports: [CoreModule, PersistenceModule, IdempotencyModule, RequestLogModule, PaymentsModule, AuthModule, BillingModule, AccountPlaneModule, DataPlaneModule, MetricsModule, ConsoleModule, AdminModule],
  controllers: [HealthController],
})
export class AppModule {}
