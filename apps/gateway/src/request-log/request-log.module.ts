import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { RequestLogInterceptor } from './request-log.interceptor';
import { RequestRecorder } from './request-recorder.service';

/** Request logging: the recorder (used by the interceptor, the guard's refusals and MCP tool calls) and the interceptor. */
@Global()
@Module({
  providers: [RequestRecorder, { provide: APP_INTERCEPTOR, useClass: RequestLogInterceptor }],
  exports: [RequestRecorder],
})
export class RequestLogModule {}
