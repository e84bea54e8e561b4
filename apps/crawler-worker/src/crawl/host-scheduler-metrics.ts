import { Counter, Gauge, type Registry } from 'prom-client';
import type { LimitChange } from './host-concurrency';
import type { HostScheduler } from './host-scheduler';

/**
 * The worker's per-host politeness on /metrics: requests in flight, the highest limit a busy host has reached, and every
 * move of a host's limit by cause. Hosts are not a label (their number is unbounded); the log of a crawl names them.
 */
export class HostSchedulerMetrics {
  private readonly limitChanges = new Counter({
    name: 'sift_crawl_host_limit_changes_total',
    help: 'Moves of a host\'s concurrency limit: grew (+1 after quick, steady answers), or halved because the host answered 429/503 (throttled), gave no answer (failed) or slowed down (slow).',
    labelNames: ['change'],
    registers: [],
  });

  /** The scheduler's onLimitChange. */
  readonly count = (change: LimitChange): void => {
    this.limitChanges.inc({ change });
  };

  register(registry: Registry, scheduler: HostScheduler): void {
    registry.registerMetric(this.limitChanges);
    new Gauge({
      name: 'sift_crawl_host_requests_in_flight',
      help: 'Requests the worker\'s crawls have in flight, over all hosts.',
      registers: [registry],
      collect() {
        this.set(scheduler.inFlight);
      },
    });
    new Gauge({
      name: 'sift_crawl_host_concurrency_limit_max',
      help: 'The highest concurrency limit among hosts with requests in flight or waiting (learned from their answers, at most CRAWL_HOST_MAX_CONCURRENCY).',
      registers: [registry],
      collect() {
        this.set(scheduler.highestBusyLimit);
      },
    });
  }
}
