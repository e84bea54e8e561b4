import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callGateway } from '@sift/testing';
import { type GatewayProcess, startGatewayProcess } from '../testing/gateway-process';

interface ExportRequest {
  path: string;
  contentType: string | undefined;
  spans: { name: string; traceId: string }[];
}

/** A collector on loopback speaking OTLP/HTTP with JSON bodies: records the spans of each export request. */
async function startCollector(): Promise<{ url: string; exports: ExportRequest[]; close(): Promise<void> }> {
  const exports: ExportRequest[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const parsed = JSON.parse(body || '{}') as { resourceSpans?: { scopeSpans?: { spans?: { name: string; traceId: string }[] }[] }[] };
      const spans = (parsed.resourceSpans ?? []).flatMap((resource) => (resource.scopeSpans ?? []).flatMap((scope) => scope.spans ?? []));
      exports.push({ path: request.url ?? '', contentType: request.headers['content-type'], spans });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, exports, close: () => new Promise((closed) => server.close(() => closed())) };
}

describe('tracing (OTEL_EXPORTER_OTLP_ENDPOINT set)', () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    collector = await startCollector();
    gateway = await startGatewayProcess({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      // Export each batch at once rather than after the default 5 s.
      OTEL_BSP_SCHEDULE_DELAY: '200',
    });
  }, 120_000);

  afterAll(async () => {
    await gateway?.stop();
    await collector?.close();
  });

  it('exports the spans of a search to the collector: the HTTP request and its Postgres statements, in one trace', async () => {
    const search = await callGateway(gateway.baseUrl, 'POST', '/search', { body: { query: 'tracing' }, headers: { 'X-Service-Access-Mode': 'keyless' } });
    expect(search.status).toBe(200);
    let spans: ExportRequest['spans'] = [];
    for (let tries = 0; tries < 100 && !spans.some((span) => /POST/.test(span.name)); tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      spans = collector.exports.flatMap((request) => request.spans);
    }
    expect(collector.exports.every((request) => request.path === '/v1/traces' && /json/.test(request.contentType ?? ''))).toBe(true);
    const server = spans.find((span) => /POST/.test(span.name));
    expect(server).toBeDefined();
    const sameTrace = spans.filter((span) => span.traceId === server?.traceId).map((span) => span.name);
    expect(sameTrace.some((name) => /pg\.|SELECT|WITH|sift_/i.test(name))).toBe(true);
  });
});
