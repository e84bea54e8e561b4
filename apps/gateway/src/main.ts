// Tracing first: its instrumentation patches http, pg and ioredis as the app's imports load them.
import './observability/tracing';
import 'reflect-metadata';
import { createGatewayApp, gatewayLogger } from './app.factory';
import { loadGatewayConfig } from './core/core.module';

async function bootstrap(): Promise<void> {
  const config = loadGatewayConfig();
  const app = await createGatewayApp();
  await app.listen(config.PORT, '0.0.0.0');
  const base = `http://127.0.0.1:${config.PORT}`;
  gatewayLogger().log(`Sift gateway listening on ${base} (Swagger UI: ${base}/docs, OpenAPI: ${base}/openapi.json)`);
}

bootstrap().catch((error: Error) => {
  console.error(`gateway failed to start: ${error.message}`);
  process.exit(1);
});
