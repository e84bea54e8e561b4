import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyStore } from './idempotency-store';

/**
 * Safe retries of the tenant API's POSTs. Imported before the request-log module: global interceptors run in the
 * order their modules are registered, and a replay must be answered before the request log and metering see it.
 */
@Module({
  providers: [IdempotencyStore, { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor }],
})
export class IdempotencyModule {}
