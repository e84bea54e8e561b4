import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { AccountPlaneModule } from './account-plane.module';
import { AuthModule } from './caller/auth.module';
import { BillingModule } from './billing/billing.module';
import { DataPlaneModule } from './data-plane.module';
import { CoreModule } from './core/core.module';
import { PersistenceModule } from './core/persistence.module';
import { HealthController } from './health/health.controller';
import { RequestLogModule } from './request-log/request-log.module';
import { HttpMetricsMiddleware } from './metrics/http-metrics.middleware';
import { MetricsController } from './metrics/metrics.controller';
import { PaymentsModule } from './payments/payments.module';

@Module({
  imports: [CoreModule, PersistenceModule, RequestLogModule, PaymentsModule, AuthModule, BillingModule, AccountPlaneModule, DataPlaneModule],
  controllers: [HealthController, MetricsController],
})
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(HttpMetricsMiddleware).forRoutes('*');
  }
}
