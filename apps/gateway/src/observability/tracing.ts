import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';

/**
 * OpenTelemetry tracing, only when OTEL_EXPORTER_OTLP_ENDPOINT names a collector (OTLP over HTTP): spans for the
 * gateway's HTTP server, Express routes, Postgres, Redis (which carries the BullMQ commands) and outbound undici
 * requests (SearXNG, the LLM). Imported first by main.ts, because instrumentation patches modules as they load;
 * the exporter reads the standard OTEL_* variables (endpoint, headers, batch delay) itself.
 */
function startTracing(): void {
  if (!process.env.OTEL_EXPORTER_OTLP_ENDPOINT) return;
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? 'sift-gateway',
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [new HttpInstrumentation(), new ExpressInstrumentation(), new PgInstrumentation(), new IORedisInstrumentation(), new UndiciInstrumentation()],
  });
  sdk.start();
  // Spans still batched are sent before the process exits.
  process.once('beforeExit', () => void sdk.shutdown());
}

startTracing();
