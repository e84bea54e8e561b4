import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { HttpMetricsMiddleware } from './http-metrics.middleware';
import { MetricsController } from './metrics.controller';
import { MetricsExposition } from './metrics-exposition';
import { QueueDepthMetrics } from './queue-depth-metrics';

@Module({
  controllers: [MetricsController],
  providers: [MetricsExposition, QueueDepthMetrics],
})
export class MetricsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(HttpMetricsMiddleware).forRoutes('*');
  }
}
