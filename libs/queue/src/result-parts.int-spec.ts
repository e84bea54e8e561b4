import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { defineJob, QueueName } from '@sift/queue-contracts';
import { defineJobHandler } from './job-handler';
import { JobQueue } from './job-queue';
import { RESULT_PARTS_READ_INTERVAL_MS, resultPartsKeyOf } from './result-parts';
import { type QueueUnderTest, startQueueUnderTest } from './testing/queue-under-test';

// A test-only job on the extract queue; the unique prefix keeps it away from every other test file.
const ListedJob = defineJob({
  name: 'listed',
  queue: QueueName.Extract,
  payloadSchema: z.object({
    words: z.array(z.string()),
    /** The result's words as indices into `words` (handed over in their own order). */
    order: z.array(z.number().int()),
    /** Deletes the job's list once the caller has had time to read it, or after the last push. */
    deleteList: z.enum(['whileRunning', 'afterFinish']).optional(),
  }),
  resultSchema: z.object({ handedOver: z.boolean(), words: z.array(z.string()) }),
  streamsResultParts: true,
});

describe('a job result handed over in parts while the job runs (real Redis)', () => {
  const prefix = `test-parts-${randomUUID()}`;
  let connection: Redis;
  let jobQueue: JobQueue;
  const keyOf = (jobId: string) => resultPartsKeyOf(prefix, QueueName.Extract, jobId);

  const handlers = [
    defineJobHandler(ListedJob, async (payload, context) => {
      const parts = context.resultParts?.<string>();
      if (!parts) return { handedOver: false, words: payload.order.map((index) => payload.words[index]) };
      for (const word of payload.words) parts.add(word);
      if (payload.deleteList === 'whileRunning') {
        await new Promise((resolve) => setTimeout(resolve, 5 * RESULT_PARTS_READ_INTERVAL_MS));
        await connection.del(keyOf(context.jobId));
      }
      await parts.finish('words', payload.order);
      if (payload.deleteList === 'afterFinish') await connection.del(keyOf(context.jobId));
      return { handedOver: true, words: [] };
    }),
  ];

  let queueUnderTest: QueueUnderTest | undefined;

  beforeAll(async () => {
    queueUnderTest = await startQueueUnderTest({ prefix, queue: QueueName.Extract, handlers, definitions: [ListedJob], concurrency: 2 });
    ({ connection, jobQueue } = queueUnderTest);
  });

  afterAll(() => queueUnderTest?.close());

  // Typographic quotes, an accented letter, a CJK word and an emoji: written as bytes, read back as UTF-8.
  const words = ['“quoted”', 'été', '字', '😀', 'plain'];

  it('assembles the result from the items in the order its return value gives; the return value carries none of them', async () => {
    const jobId = `listed-${randomUUID()}`;
    const result = await jobQueue.enqueueAndWait(ListedJob, { words, order: [4, 2, 0, 3] }, { timeoutMs: 10_000, jobId });
    expect(result).toEqual({ handedOver: true, words: ['plain', '字', '“quoted”', '😀'] });
    const jobs = new Queue(QueueName.Extract, { connection, prefix });
    try {
      const returnValue = (await jobs.getJob(jobId))?.returnvalue as Record<string, unknown>;
      expect(returnValue.words).toEqual([]);
      expect(JSON.stringify(returnValue)).not.toContain('plain');
    } finally {
      await jobs.close();
    }
  });

  it('reads the items while the job runs: the result is whole though the list is gone when the job returns', async () => {
    const many = Array.from({ length: 300 }, (_, index) => `word ${index} ${'“x” '.repeat(50)}`);
    const order = many.map((_, index) => index);
    const result = await jobQueue.enqueueAndWait(ListedJob, { words: many, order, deleteList: 'whileRunning' }, { timeoutMs: 10_000 });
    expect(result.words).toEqual(many);
  });

  it('leaves out the items another run of the same job pushed to its list', async () => {
    const jobId = `listed-${randomUUID()}`;
    await connection.rpush(keyOf(jobId), `${'0'.repeat(12)}"stale"`, `${'0'.repeat(12)}"older"`);
    const result = await jobQueue.enqueueAndWait(ListedJob, { words, order: [0, 1] }, { timeoutMs: 10_000, jobId });
    expect(result.words).toEqual(['“quoted”', 'été']);
  });

  it('fails the wait, not with a short result, when items the return value lists are missing', async () => {
    // A caller of many jobs reads each one's items once it has finished; this job's list is gone by then.
    const [settled] = await jobQueue.enqueueAllAndWait(ListedJob, [{ words, order: [0], deleteList: 'afterFinish' }], { timeoutMs: 10_000 });
    expect(settled.status).toBe('rejected');
    expect(settled.status === 'rejected' ? String(settled.reason) : '').toMatch(/lists 5 items .* of which 0 were found/);
  });

  it('gives a producer that does not wait for the job the whole result in its return value', async () => {
    const job = await jobQueue.enqueue(ListedJob, { words, order: [1] });
    const jobs = new Queue(QueueName.Extract, { connection, prefix });
    try {
      let returnValue: unknown;
      for (let waited = 0; returnValue === undefined && waited < 10_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        returnValue = (await jobs.getJob(job.id ?? ''))?.returnvalue ?? undefined;
      }
      expect(returnValue).toEqual({ handedOver: false, words: ['été'] });
    } finally {
      await jobs.close();
    }
  });
});
