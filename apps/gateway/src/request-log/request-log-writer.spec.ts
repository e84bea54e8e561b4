import type { NewRequestLog, RequestLogRepository } from '@sift/persistence';
import { isRejectedRow, MAXIMUM_RETAINED_ROWS, RequestLogWriter } from './request-log-writer.service';

type Row = { accountId: string; log: NewRequestLog };

/** A repository whose Postgres is down until `reachable` is set; stores what it accepts. */
class FlakyRepository {
  reachable = false;
  readonly stored: string[] = [];
  async createMany(rows: readonly Row[]): Promise<number> {
    if (!this.reachable) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    if (rows.some((row) => row.log.requestId.startsWith('bad'))) {
      throw Object.assign(new Error('insert or update on table "request_logs" violates foreign key constraint'), { code: '23503' });
    }
    this.stored.push(...rows.map((row) => row.log.requestId));
    return rows.length;
  }
}

function logOf(requestId: string): NewRequestLog {
  return { requestId, endpoint: 'search', statusCode: 200, responseTime: 0.1, credits: 1 } as unknown as NewRequestLog;
}

async function droppedCount(writer: RequestLogWriter, reason: string): Promise<number> {
  const metric = await writer.metrics.dropped.get();
  return metric.values.find((value) => value.labels.reason === reason)?.value ?? 0;
}

// Issue 16 item 11: request logs were silently dropped while Postgres was down.
describe('RequestLogWriter while Postgres is down', () => {
  it('keeps the rows and stores them once Postgres answers again', async () => {
    const repository = new FlakyRepository();
    const writer = new RequestLogWriter(repository as unknown as RequestLogRepository);
    writer.add('account', logOf('first'));
    writer.add('account', logOf('second'));
    await writer.flush();
    expect(repository.stored).toEqual([]);
    expect(writer.retainedRows).toBe(2);

    repository.reachable = true;
    writer.add('account', logOf('third'));
    await writer.flush();
    expect(repository.stored).toEqual(['first', 'second', 'third']);
    expect(writer.retainedRows).toBe(0);
    await writer.onApplicationShutdown();
  });

  it('drops a row Postgres rejects, counts it, and keeps the others', async () => {
    const repository = new FlakyRepository();
    repository.reachable = true;
    const writer = new RequestLogWriter(repository as unknown as RequestLogRepository);
    const before = await droppedCount(writer, 'rejected');
    for (const id of ['good-1', 'bad-1', 'good-2']) writer.add('account', logOf(id));
    await writer.flush();
    expect(repository.stored).toEqual(['good-1', 'good-2']);
    expect((await droppedCount(writer, 'rejected')) - before).toBe(1);
    await writer.onApplicationShutdown();
  });

  it('bounds what it keeps and reports the overflow in the metrics', async () => {
    const repository = new FlakyRepository();
    const writer = new RequestLogWriter(repository as unknown as RequestLogRepository);
    const before = await droppedCount(writer, 'overflow');
    for (let index = 0; index < MAXIMUM_RETAINED_ROWS + 5; index += 1) writer.add('account', logOf(`row-${index}`));
    await writer.flush();
    expect(writer.retainedRows).toBe(MAXIMUM_RETAINED_ROWS);
    expect((await droppedCount(writer, 'overflow')) - before).toBe(5);
    repository.reachable = true;
    await writer.flush();
    expect(repository.stored[0]).toBe('row-5');
    expect(repository.stored).toHaveLength(MAXIMUM_RETAINED_ROWS);
    await writer.onApplicationShutdown();
  });

  it('tells a refused row from an unreachable server', () => {
    expect(isRejectedRow(Object.assign(new Error('x'), { code: '23503' }))).toBe(true);
    expect(isRejectedRow(new Error('wrapped', { cause: Object.assign(new Error('bad'), { code: '22021' }) }))).toBe(true);
    expect(isRejectedRow(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(isRejectedRow(new Error('Connection terminated unexpectedly'))).toBe(false);
  });
});
