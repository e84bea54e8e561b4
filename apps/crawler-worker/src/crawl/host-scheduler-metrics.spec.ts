import { Registry } from 'prom-client';
import { HostScheduler } from './host-scheduler';
import { HostSchedulerMetrics } from './host-scheduler-metrics';

describe('HostSchedulerMetrics', () => {
  it('shows the requests in flight, the highest busy limit and each move of a limit on the worker registry', async () => {
    const metrics = new HostSchedulerMetrics();
    const scheduler = new HostScheduler({ initialConcurrentPerHost: 4, maxConcurrentPerHost: 16, maxCrawlDelayMs: 5000 }, metrics.count);
    const registry = new Registry();
    metrics.register(registry, scheduler);
    const signal = new AbortController().signal;

    const throttled = await scheduler.acquire('a.example.com', signal);
    const running = await scheduler.acquire('b.example.com', signal);
    throttled.release('throttled');
    const text = await registry.metrics();
    expect(text).toContain('sift_crawl_host_requests_in_flight 1');
    expect(text).toContain('sift_crawl_host_concurrency_limit_max 4');
    expect(text).toContain('sift_crawl_host_limit_changes_total{change="throttled"} 1');
    running.release('ignored');
    expect(await registry.metrics()).toContain('sift_crawl_host_concurrency_limit_max 0');
  });
});
