import { Injectable } from '@nestjs/common';
import { Gauge, register } from 'prom-client';
import { JobQueue } from '@sift/queue';
import { QueueName } from '@sift/queue-contracts';

function gauge<Label extends string>(name: string, help: string, labelNames: readonly Label[]): Gauge<Label> {
  return (register.getSingleMetric(name) as Gauge<Label> | undefined) ?? new Gauge({ name, help, labelNames });
}

/**
 * Each queue's backlog, read from Redis when /metrics is scraped (not on a timer: the numbers are as fresh as the
 * scrape, and an idle gateway asks Redis nothing). What scales the workers (KEDA, an HPA on this metric).
 */
@Injectable()
export class QueueDepthMetrics {
  private readonly jobs = gauge('sift_queue_jobs', 'Jobs in each queue by state (waiting, active, delayed), as of the scrape.', ['queue', 'state']);
  private readonly oldestWaiting = gauge(
    'sift_queue_oldest_waiting_seconds',
    'How long the oldest waiting job of each queue has waited, as of the scrape (0 when none waits).',
    ['queue'],
  );

  constructor(private readonly jobQueue: JobQueue) {}

  /** Reads the depths; with Redis unreachable the gauges are cleared rather than left showing old numbers. */
  async sample(): Promise<void> {
    this.jobs.reset();
    this.oldestWaiting.reset();
    const depths = await this.jobQueue.depths(Object.values(QueueName)).catch(() => []);
    for (const depth of depths) {
      this.jobs.set({ queue: depth.queue, state: 'waiting' }, depth.waiting);
      this.jobs.set({ queue: depth.queue, state: 'active' }, depth.active);
      this.jobs.set({ queue: depth.queue, state: 'delayed' }, depth.delayed);
      this.oldestWaiting.set({ queue: depth.queue }, depth.oldestWaitingSeconds ?? 0);
    }
  }
}
