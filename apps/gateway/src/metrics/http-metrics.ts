import { collectDefaultMetrics, Histogram, register } from 'prom-client';

let started = false;

/** Process metrics plus one latency histogram per route and status; registered once per process. */
export function httpRequestDuration(): Histogram<'method' | 'route' | 'status'> {
  if (!started) {
    collectDefaultMetrics({ prefix: 'sift_gateway_' });
    started = true;
  }
  const existing = register.getSingleMetric('sift_http_request_duration_seconds');
  if (existing) return existing as Histogram<'method' | 'route' | 'status'>;
  return new Histogram({
    name: 'sift_http_request_duration_seconds',
    help: 'Gateway request latency by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 150],
  });
}
