import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { register } from 'prom-client';
import { endpointUrl } from '@sift/models';
import { observeUpstreamRequests } from '@sift/queue';
import { GATEWAY_CONFIG, type GatewayAppConfig } from '../core/core.module';
import { bearerAllowed } from '../observability/bearer-access';
import { QueueDepthMetrics } from './queue-depth-metrics';

export interface MetricsAnswer {
  status: number;
  contentType: string;
  body: string;
}

/**
 * The gateway's Prometheus text: process and HTTP metrics, queue depths sampled at the scrape, upstream latency (SearXNG,
 * the LLM, the embedding and reranking models), credits charged. Guarded by METRICS_TOKEN when set, and served on
 * METRICS_PORT when set.
 */
@Injectable()
export class MetricsExposition implements OnApplicationBootstrap, OnApplicationShutdown {
  private server: Server | undefined;
  private stopObservingUpstreams: (() => void) | undefined;

  constructor(
    private readonly queueDepths: QueueDepthMetrics,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayAppConfig,
  ) {}

  async answer(headers: IncomingHttpHeaders): Promise<MetricsAnswer> {
    if (!bearerAllowed(headers, this.config.METRICS_TOKEN)) {
      return { status: 401, contentType: 'application/json', body: JSON.stringify({ detail: { error: 'Unauthorized: /metrics needs the METRICS_TOKEN bearer.' } }) };
    }
    await this.queueDepths.sample();
    return { status: 200, contentType: register.contentType, body: await register.metrics() };
  }

  async onApplicationBootstrap(): Promise<void> {
    const { EMBEDDINGS_BASE_URL: embeddings, RERANK_BASE_URL: rerank } = this.config;
    this.stopObservingUpstreams = observeUpstreamRequests(register, {
      searxng: this.config.SEARXNG_URL,
      // By endpoint, and before the LLM (the first prefix matching wins): one server often serves chat, embeddings
      // and reranking under one base URL (vLLM, llama.cpp's server, text-embeddings-inference).
      embeddings: embeddings ? endpointUrl(embeddings, 'embeddings') : '',
      rerank: rerank ? endpointUrl(rerank, 'rerank') : '',
      llm: this.config.LLM_BASE_URL,
    });
    if (this.config.METRICS_PORT !== 0) this.server = await this.listen(this.config.METRICS_PORT);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopObservingUpstreams?.();
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  /** Its own listener, so a NetworkPolicy or firewall can keep the metrics off the public port. */
  private listen(port: number): Promise<Server> {
    const server = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://metrics').pathname;
      if (request.method !== 'GET' || path !== '/metrics') {
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: { error: 'Not Found' } }));
        return;
      }
      this.answer(request.headers).then(
        (answer) => response.writeHead(answer.status, { 'content-type': answer.contentType }).end(answer.body),
        () => response.writeHead(500).end(),
      );
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '0.0.0.0', () => resolve(server));
    });
  }
}
