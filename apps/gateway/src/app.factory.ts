import { INestApplication, Logger, LogLevel, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { json } from 'express';
import { AppModule } from './app.module';
import { ApiExceptionFilter } from './http/api-exception.filter';
import { DEFAULT_MAX_BODY_BYTES, FEEDBACK_MAX_BODY_BYTES } from './http/body-limits';
import { collapseSlashesMiddleware, requestContextMiddleware } from './caller/request-context.middleware';
import { ValidationFailedError } from './http/validation-failed.error';
import { loadGatewayConfig } from './core/core.module';
import { setupOpenApi } from './openapi';

const LOG_LEVELS: LogLevel[] = ['error', 'warn', 'log', 'debug', 'verbose'];

/** Builds the gateway exactly as `npm start` runs it; tests use the same factory on port 0. */
export async function createGatewayApp(): Promise<INestApplication> {
  const config = loadGatewayConfig();
  const logger = LOG_LEVELS.slice(0, LOG_LEVELS.indexOf(config.SIFT_LOG_LEVEL) + 1);
  const app = await NestFactory.create<NestExpressApplication>(AppModule, { bodyParser: false, logger });
  app.set('trust proxy', config.TRUST_PROXY);
  app.disable('x-powered-by');
  // Responses are per request (ids, timings): an ETag would only cost a hash of every body.
  app.set('etag', false);
  app.use(collapseSlashesMiddleware);
  app.use(requestContextMiddleware);
  // The feedback limit is enforced while reading the body, before any JSON is parsed.
  app.use('/feedback', json({ limit: FEEDBACK_MAX_BODY_BYTES, type: () => true }));
  app.use(json({ limit: DEFAULT_MAX_BODY_BYTES, type: ['application/json', 'application/*+json', 'text/plain'] }));
  app.useGlobalFilters(new ApiExceptionFilter());
  app.useGlobalPipes(
    new ValidationPipe({
      transform: true,
      // Unknown fields (real clients send extras such as api_key) are dropped, never passed on.
      whitelist: true,
      forbidNonWhitelisted: false,
      exceptionFactory: (errors) => ValidationFailedError.fromErrors(errors),
    }),
  );
  app.enableShutdownHooks();
  setupOpenApi(app);
  return app;
}

export function gatewayLogger(): Logger {
  return new Logger('gateway');
}
