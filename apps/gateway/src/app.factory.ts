import { INestApplication, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { json } from 'express';
import { AppModule } from './app.module';
import { ApiExceptionFilter } from './http/api-exception.filter';
import { DEFAULT_MAX_BODY_BYTES, FEEDBACK_MAX_BODY_BYTES, refuseUnsafeRequestInput } from './http/body-limits';
import { collapseSlashesMiddleware, requestContextMiddleware } from './caller/request-context.middleware';
import { createRequestValidationPipe } from './http/request-validation.pipe';
import { loadGatewayConfig } from './core/core.module';
import { setupOpenApi } from './openapi';
import { StructuredNestLogger } from './observability/structured-nest-logger';
import { mountQueueDashboard } from './observability/queue-dashboard';
import { accessLogMiddleware } from './observability/access-log';

/** Builds the gateway exactly as `npm start` runs it; tests use the same factory on port 0. */
export async function createGatewayApp(): Promise<INestApplication> {
  const config = loadGatewayConfig();
  const app = await NestFactory.create<NestExpressApplication>(AppModule, { bodyParser: false, logger: new StructuredNestLogger(config.SIFT_LOG_LEVEL) });
  app.set('trust proxy', config.TRUST_PROXY);
  app.disable('x-powered-by');
  // Responses are per request (ids, timings): an ETag would only cost a hash of every body.
  app.set('etag', false);
  app.use(collapseSlashesMiddleware);
  app.use(requestContextMiddleware);
  app.use(accessLogMiddleware(config.ACCESS_LOG, config.SIFT_LOG_LEVEL));
  // The feedback limit is enforced while reading the body, before any JSON is parsed.
  app.use('/feedback', json({ limit: FEEDBACK_MAX_BODY_BYTES, type: () => true }));
  app.use(json({ limit: DEFAULT_MAX_BODY_BYTES, type: ['application/json', 'application/*+json', 'text/plain'] }));
  app.use(refuseUnsafeRequestInput);
  mountQueueDashboard(app);
  app.useGlobalFilters(new ApiExceptionFilter());
  app.useGlobalPipes(createRequestValidationPipe());
  answerClientErrorsInSpecShape(app.getHttpServer() as Server);
  keepIdleConnectionsLongerThanClients(app.getHttpServer() as Server);
  app.enableShutdownHooks();
  setupOpenApi(app);
  return app;
}

/**
 * How long an idle keep-alive connection stays open. Node's default (5 s) equals the idle timeout of Node's own
 * agents, so a client reusing its connection as the gateway closes it meets a reset ("socket hang up", "fetch
 * failed") on a request that never arrived. The server must close last: longer than clients keep idle connections
 * (undici 4 s, Node's agents 5 s) and than load balancers in front of it (60 s is common).
 */
const KEEP_ALIVE_MS = 65_000;

function keepIdleConnectionsLongerThanClients(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // Above keepAliveTimeout, so the wait for a reused connection's next headers is not cut by the headers timer.
  server.headersTimeout = Math.max(server.headersTimeout, KEEP_ALIVE_MS + 1_000);
}

/** Node's own answers to requests it cannot parse, as [status, reason phrase, message]; anything else is a 400. */
const CLIENT_ERROR_ANSWERS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'Request headers are too large.'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Payload Too Large', 'Request chunk extensions are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'Request was not received in time.'],
};

/**
 * Requests Node refuses before any route sees them (headers over 16 KB, malformed syntax, a NUL in a header) get
 * an empty body by default; this answers them in the spec's error shape instead, then closes the connection.
 */
function answerClientErrorsInSpecShape(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable || socket.bytesWritten > 0) {
      socket.destroy();
      return;
    }
    const [status, reason, message] = CLIENT_ERROR_ANSWERS[error.code ?? ''] ?? [400, 'Bad Request', 'Malformed HTTP request.'];
    const body = JSON.stringify({ detail: { error: message } });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  });
}

export function gatewayLogger(): Logger {
  return new Logger('gateway');
}
