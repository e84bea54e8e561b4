import type { JobQueue } from '@sift/queue';
import type { UsageBucket, UsageReportRepository } from '@sift/persistence';
import type { ApiError } from '../http/api-error';
import type { RequestLogWriter } from '../request-log/request-log-writer.service';
import { UsageConsoleService } from './usage-console.service';

const HOUR_MS = 3_600_000;
const now = new Date('2026-11-29T10:30:00.000Z');

function serviceOver(buckets: UsageBucket[]): UsageConsoleService {
  const reports = { buckets: async () => buckets } as unknown as UsageReportRepository;
  const pendingLogs = { flush: async () => undefined } as unknown as RequestLogWriter;
  return new UsageConsoleService(reports, pendingLogs, {} as JobQueue);
}

function bucket(hoursAgo: number, group: string, requests: number, credits = requests): UsageBucket {
  const start = new Date(Math.floor((now.getTime() - hoursAgo * HOUR_MS) / HOUR_MS) * HOUR_MS);
  return { bucket: start, group, label: `label-${group}`, requests, credits, errors: 0, p50Seconds: 0.1, p95Seconds: 0.2 };
}

describe('UsageConsoleService.usage', () => {
  it('puts every group on the same hourly axis of the last 24 hours, zero where it had no requests', async () => {
    const view = await serviceOver([bucket(0, 'search', 3), bucket(5, 'search', 1), bucket(5, 'extract', 2, 0)]).usage({}, now);
    expect(view.bucket).toBe('hour');
    // 09:00 yesterday (the partial hour at the range's start) up to 10:00 today.
    expect(view.buckets).toHaveLength(25);
    expect(view.buckets[0]).toBe('2026-11-28T10:00:00.000Z');
    expect(view.buckets.at(-1)).toBe('2026-11-29T10:00:00.000Z');
    const search = view.series.find((series) => series.group === 'search');
    expect(search?.requests.at(-1)).toBe(3);
    expect(search?.requests.at(-6)).toBe(1);
    expect(search?.requests.reduce((sum, value) => sum + value, 0)).toBe(4);
    expect(view.series.map((series) => [series.group, series.total_requests, series.total_credits])).toEqual([
      ['search', 4, 4],
      ['extract', 2, 0],
    ]);
    expect(view.totals).toEqual({ requests: 6, credits: 4, errors: 0 });
  });

  it('draws the seven busiest of more than eight groups and sums the rest as others', async () => {
    const groups = Array.from({ length: 10 }, (_, position) => bucket(1, `key-${position}`, position + 1));
    const view = await serviceOver(groups).usage({ group_by: 'key' }, now);
    expect(view.series.map((series) => series.group)).toEqual(['key-9', 'key-8', 'key-7', 'key-6', 'key-5', 'key-4', 'key-3', 'other']);
    expect(view.series.at(-1)).toMatchObject({ label: '3 others', total_requests: 1 + 2 + 3 });
    expect(view.series.at(-1)?.requests.at(-2)).toBe(6);
  });

  it('chooses daily buckets past three days, and refuses a range of more than 1000 buckets', async () => {
    const week = await serviceOver([]).usage({ from: '2026-11-22T00:00:00Z', to: '2026-11-29T00:00:00Z' }, now);
    expect([week.bucket, week.buckets.length]).toEqual(['day', 7]);
    const refusal = (answer: Promise<unknown>) => answer.then(() => 'answered', (error: ApiError) => (error.getResponse() as { detail: { error: string } }).detail.error);
    expect(await refusal(serviceOver([]).usage({ from: '2026-01-01T00:00:00Z', bucket: 'hour' }, now))).toMatch(/^The range holds 7979 hour buckets, at most 1000/);
    expect(await refusal(serviceOver([]).usage({ from: '2026-11-29T11:00:00Z' }, now))).toBe('from must be before to.');
  });
});
