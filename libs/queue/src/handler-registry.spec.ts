import { z } from 'zod';
import { defineJob, QueueName } from '@sift/queue-contracts';
import { buildHandlerRegistry } from './handler-registry';
import { defineJobHandler } from './job-handler';

const schemas = { payloadSchema: z.object({ id: z.string() }), resultSchema: z.object({ done: z.boolean() }) };
const FirstJob = defineJob({ name: 'first', queue: QueueName.Crawl, ...schemas });
const SecondJob = defineJob({ name: 'second', queue: QueueName.Crawl, ...schemas });
const handle = async () => ({ done: true });

describe('buildHandlerRegistry', () => {
  it('maps every job of the queue to its one handler', () => {
    const registry = buildHandlerRegistry(QueueName.Crawl, [defineJobHandler(FirstJob, handle), defineJobHandler(SecondJob, handle)], [FirstJob, SecondJob]);
    expect([...registry.keys()].sort()).toEqual(['first', 'second']);
  });

  it('names every problem at once: a missing and a duplicated handler', () => {
    const handlers = [defineJobHandler(FirstJob, handle), defineJobHandler(FirstJob, handle)];
    expect(() => buildHandlerRegistry(QueueName.Crawl, handlers, [FirstJob, SecondJob])).toThrow(
      'Worker for queue "crawl" refuses to start: job "first" has 2 handlers; job "second" has no handler',
    );
  });

  it('refuses a handler for a job the queue does not know', () => {
    const Stray = defineJob({ name: 'stray', queue: QueueName.Crawl, ...schemas });
    expect(() => buildHandlerRegistry(QueueName.Crawl, [defineJobHandler(FirstJob, handle), defineJobHandler(Stray, handle)], [FirstJob])).toThrow(
      /handler for unknown job "stray"/,
    );
  });
});

describe('defineJobHandler', () => {
  it('re-validates the payload before the handler runs', async () => {
    const seen: unknown[] = [];
    const handler = defineJobHandler(FirstJob, async (payload) => {
      seen.push(payload);
      return { done: true };
    });
    await expect(handler.run({ id: 42 }, { jobId: '1', attempt: 1 })).rejects.toThrow(/Invalid payload for job first: id/);
    expect(seen).toEqual([]);
    await expect(handler.run({ id: 'a', extra: true }, { jobId: '2', attempt: 1 })).resolves.toEqual({ done: true });
    expect(seen).toEqual([{ id: 'a' }]);
  });
});
