import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { Counter, Histogram, type Registry } from 'prom-client';

/** The part of undici's diagnostics messages read here (undici:request:create / :headers / :error). */
interface UndiciRequestMessage {
  request: { origin?: string | URL; path?: string };
  response?: { statusCode: number };
}

const CHANNELS = ['undici:request:create', 'undici:request:headers', 'undici:request:error'] as const;

function metricIn<T>(registry: Registry, name: string, create: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? create();
}

/**
 * Latency (to the response headers) and errors of the operator's upstream services, SearXNG and the LLM, by name.
 * It listens on undici's diagnostics channels rather than wrapping each client, so every call counts, whichever
 * code makes it: a request whose URL starts with a configured base URL is attributed to that upstream. A base URL
 * may be empty (the upstream is not configured); its name is then never seen.
 */
export function observeUpstreamRequests(registry: Registry, baseUrls: Record<string, string>): () => void {
  const duration = metricIn(
    registry,
    'sift_upstream_request_duration_seconds',
    () =>
      new Histogram({
        name: 'sift_upstream_request_duration_seconds',
        help: 'Time from sending a request to an upstream (SearXNG, the LLM) to its response headers, by upstream and status.',
        labelNames: ['upstream', 'status'] as const,
        buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
        registers: [registry],
      }),
  );
  const errors = metricIn(
    registry,
    'sift_upstream_errors_total',
    () =>
      new Counter({
        name: 'sift_upstream_errors_total',
        help: 'Requests to an upstream that failed: no answer (connection, timeout) or a 5xx status.',
        labelNames: ['upstream'] as const,
        registers: [registry],
      }),
  );
  const prefixes = Object.entries(baseUrls).filter(([, url]) => url.length > 0).map(([name, url]) => [name, url.replace(/\/+$/, '')] as const);
  const started = new WeakMap<object, { upstream: string; at: number }>();
  const upstreamOf = ({ request }: UndiciRequestMessage) => {
    const url = `${String(request.origin ?? '').replace(/\/+$/, '')}${request.path ?? ''}`;
    return prefixes.find(([, prefix]) => url.startsWith(prefix))?.[0];
  };
  const handlers: Record<(typeof CHANNELS)[number], (message: unknown) => void> = {
    'undici:request:create': (message) => {
      const upstream = upstreamOf(message as UndiciRequestMessage);
      if (upstream) started.set((message as UndiciRequestMessage).request, { upstream, at: performance.now() });
    },
    'undici:request:headers': (message) => {
      const { request, response } = message as UndiciRequestMessage;
      const start = started.get(request);
      if (!start || !response) return;
      started.delete(request);
      duration.observe({ upstream: start.upstream, status: String(response.statusCode) }, (performance.now() - start.at) / 1000);
      if (response.statusCode >= 500) errors.inc({ upstream: start.upstream });
    },
    'undici:request:error': (message) => {
      const start = started.get((message as UndiciRequestMessage).request);
      if (!start) return;
      started.delete((message as UndiciRequestMessage).request);
      errors.inc({ upstream: start.upstream });
    },
  };
  for (const channel of CHANNELS) subscribe(channel, handlers[channel]);
  return () => {
    for (const channel of CHANNELS) unsubscribe(channel, handlers[channel]);
  };
}
