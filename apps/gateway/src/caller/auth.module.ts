import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { Redis } from 'ioredis';
import { ApiKeyAuthenticator, RedisRateLimiter } from '@sift/auth';
import { ApiKeyRepository } from '@sift/persistence';
import { CallerAuthentication } from './caller-authentication.service';
import { CallerGuard } from './caller.guard';
import { REDIS } from '../core/core.module';

@Global()
@Module({
  providers: [
    { provide: ApiKeyAuthenticator, inject: [ApiKeyRepository], useFactory: (keys: ApiKeyRepository) => new ApiKeyAuthenticator(keys) },
    { provide: RedisRateLimiter, inject: [REDIS], useFactory: (redis: Redis) => new RedisRateLimiter(redis) },
    CallerAuthentication,
    { provide: APP_GUARD, useClass: CallerGuard },
  ],
  exports: [CallerAuthentication, ApiKeyAuthenticator],
})
export class AuthModule {}
