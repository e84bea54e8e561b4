import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Prometheus counters of one worker, in a registry of its own so several workers can live in one process. */
export class WorkerMetrics {
  readonly registry = new Registry();
  readonly completed = new Counter({
    name: 'sift_jobs_completed_total',
    help: 'Jobs whose handler returned a result.',
    labelNames: ['queue', 'job'] as const,
    registers: [this.registry],
  });
  readonly failed = new Counter({
    name: 'sift_jobs_failed_total',
    help: 'Jobs whose handler threw or whose payload was invalid.',
    labelNames: ['queue', 'job'] as const,
    registers: [this.registry],
  });
  readonly expired = new Counter({
    name: 'sift_jobs_expired_total',
    help: 'Jobs failed without running because their caller had stopped waiting (deadline passed).',
    labelNames: ['queue', 'job'] as const,
    registers: [this.registry],
  });
  readonly stalled = new Counter({
    name: 'sift_jobs_stalled_total',
    help: 'Jobs this worker took back from a worker that stopped renewing its lock (crashed or blocked).',
    labelNames: ['queue'] as const,
    registers: [this.registry],
  });
  readonly duration = new Histogram({
    name: 'sift_job_duration_seconds',
    help: 'Time from a worker picking a job up to its handler settling.',
    labelNames: ['queue', 'job'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 150],
    registers: [this.registry],
  });

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/** The browser pool of a worker that renders pages: how many Chromium processes it holds open, read on scrape. */
export function registerBrowserPoolGauge(registry: Registry, openBrowsers: () => number): void {
  new Gauge({
    name: 'sift_browser_pool_open_browsers',
    help: 'Chromium browsers the worker holds open (launched lazily, recycled after a number of pages or a memory cap).',
    registers: [registry],
    collect() {
      this.set(openBrowsers());
    },
  });
}

/**
 * Pages whose job has answered and whose store is still running, as `sift_page_stores_pending`: an extract and a
 * search's fetch answer with the page first and store it after. A gauge that stays up means stores are not keeping
 * pace (a slow or silent database); a caller that needs a page in the store before its next request waits for zero.
 */
export function registerPendingStoresGauge(registry: Registry, pending: () => number): void {
  new Gauge({
    name: 'sift_page_stores_pending',
    help: 'Pages whose job has answered and whose store is still running (an extract or a search fetch answers first, then stores the page).',
    registers: [registry],
    collect() {
      this.set(pending());
    },
  });
}

/**
 * The pages a worker acquired, by the way the page pipeline got each (`via`: the store's copy, the stored page of an
 * unchanged response, the response as served, the browser), as `sift_pages_acquired_total`; `register` puts it on the
 * worker's registry (runWorkerProcess's registerMetrics). Renders are the expensive way: a static site never has any.
 */
export class PagesAcquired {
  private readonly counter = new Counter({
    name: 'sift_pages_acquired_total',
    help: 'Pages acquired by the page pipeline, by how: store (a stored copy answered), unchanged (the stored page of a response with the same digest), fetch (the response as served), render (the browser).',
    labelNames: ['via'],
    registers: [],
  });

  register(registry: Registry): void {
    registry.registerMetric(this.counter);
  }

  /** The pipeline's onAcquired. */
  readonly count = (via: string): void => {
    this.counter.inc({ via });
  };
}
