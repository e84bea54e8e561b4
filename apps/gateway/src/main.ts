// Tracing first: its instrumentation patches http, pg and ioredis as the app's imports load them.
import './observability/tracing';
import 'reflect-metadata';
import type { Server } from 'node:http';
import { CONFIGURATION_EXIT_CODE } from '@sift/queue';
import { createGatewayApp, gatewayLogger } from './app.factory';
import { GatewayAppConfig, loadGatewayConfig } from './core/core.module';

async function bootstrap(config: GatewayAppConfig): Promise<void> {
  const app = await createGatewayApp();
  await app.listen(config.PORT, '0.0.0.0');
  // The port bound: PORT itself, or the one the system chose for PORT=0.
  const address = (app.getHttpServer() as Server).address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : config.PORT}`;
  gatewayLogger().log(`Sift gateway listening on ${base} (Swagger UI: ${base}/docs, OpenAPI: ${base}/openapi.json)`);
}

let config: GatewayAppConfig | undefined;
Promise.resolve()
  .then(() => {
    config = loadGatewayConfig();
    return bootstrap(config);
  })
  .catch((error: NodeJS.ErrnoException & { port?: number }) => {
    if (error.code === 'EADDRINUSE' && config) {
      // A restart would meet the same port: the supervisor stops instead of retrying (CONFIGURATION_EXIT_CODE).
      const setting = error.port === config.METRICS_PORT && config.METRICS_PORT !== 0 ? 'METRICS_PORT' : 'PORT';
      console.error(
        `gateway failed to start: port ${error.port ?? config.PORT} (${setting}) is already in use, by another Sift or another program: set ${setting} to a free port`,
      );
      process.exit(CONFIGURATION_EXIT_CODE);
    }
    console.error(`gateway failed to start: ${error.message}`);
    process.exit(1);
  });
