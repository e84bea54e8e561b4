import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestTask, TestTaskResult } from './fixtures/test-tasks.task';
import { TaskPool, TaskPoolError } from './task-pool';

const TASK_MODULE = resolve(__dirname, 'fixtures', 'test-tasks.task.ts');
// Each thread compiles its TypeScript with SWC on start, which takes a few seconds on a busy machine.
jest.setTimeout(60_000);

/** Resolves how many times a 1 ms interval fired while `work` ran: 0 means the event loop was blocked throughout. */
async function timerTurnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  const interval = setInterval(() => (turns += 1), 1);
  try {
    await work().catch(() => undefined);
  } finally {
    clearInterval(interval);
  }
  return turns;
}

describe('TaskPool', () => {
  let pool: TaskPool<TestTask, TestTaskResult>;
  const threadErrors: Error[] = [];

  beforeAll(async () => {
    pool = await TaskPool.start<TestTask, TestTaskResult>(
      { taskModule: TASK_MODULE, threads: 2, deadlineMs: 20_000, maxHeapMb: 64, maxQueue: 4, onThreadError: (error) => threadErrors.push(error) },
      { kind: 'echo', value: 'warm' },
    );
  });

  afterAll(() => pool.close());

  const echoes = (values: string[]) => Promise.all(values.map((value) => pool.run({ kind: 'echo', value })));

  it('runs tasks in its threads, spread over all of them', async () => {
    const results = await echoes(['a', 'b', 'c', 'd']);
    expect(results.map((result) => result.value)).toEqual(['A', 'B', 'C', 'D']);
    expect(results.every((result) => result.threadId !== 0)).toBe(true);
  });

  it('rejects a task whose function throws, with its message, and goes on', async () => {
    await expect(pool.run({ kind: 'throw', message: 'bad page' })).rejects.toMatchObject({ message: 'bad page' });
    await expect(pool.run({ kind: 'echo', value: 'next' })).resolves.toMatchObject({ value: 'NEXT' });
  });

  it('refuses tasks past its queue bound at once', async () => {
    const running = [0, 1].map(() => pool.run({ kind: 'sleep', ms: 400 }));
    const queued = [0, 1, 2, 3].map(() => pool.run({ kind: 'sleep', ms: 10 }));
    expect(pool.busyThreads).toBe(2);
    expect(pool.queued).toBe(4);
    await expect(pool.run({ kind: 'echo', value: 'one too many' })).rejects.toMatchObject({ code: 'queue_full', limit: 4 });
    await expect(Promise.all([...running, ...queued])).resolves.toHaveLength(6);
  });

  it('gives a free thread to the urgent waiting tasks first', async () => {
    const finished: string[] = [];
    const running = [0, 1].map(() => pool.run({ kind: 'sleep', ms: 300 }));
    // Each waiting task holds its thread 200 ms, so the two that leave the queue first finish well before the others.
    const queued = (label: string, urgent: boolean) => pool.run({ kind: 'sleep', ms: 200 }, { urgent }).then(() => finished.push(label));
    const waiting = [queued('later-1', false), queued('later-2', false), queued('first-1', true), queued('first-2', true)];
    expect(pool.queued).toBe(4);
    await Promise.all([...running, ...waiting]);
    expect(finished.slice(0, 2).sort()).toEqual(['first-1', 'first-2']);
    expect(finished.slice(2).sort()).toEqual(['later-1', 'later-2']);
  });

  it('terminates a task that runs past its deadline, keeps the event loop free meanwhile, and replaces the thread', async () => {
    const startedAt = performance.now();
    let failure: unknown;
    const turns = await timerTurnsDuring(() => pool.run({ kind: 'spin' }, { deadlineMs: 1_500 }).catch((error: unknown) => (failure = error)));
    const elapsedMs = performance.now() - startedAt;
    expect(failure).toBeInstanceOf(TaskPoolError);
    expect(failure).toMatchObject({ code: 'deadline', limit: 1_500 });
    expect(elapsedMs).toBeGreaterThanOrEqual(1_400);
    expect(elapsedMs).toBeLessThan(4_000);
    expect(turns).toBeGreaterThan(100);
    expect((await echoes(['x', 'y', 'z'])).map((result) => result.value)).toEqual(['X', 'Y', 'Z']);
  });

  it('applies a caller deadline shorter than the pool one', async () => {
    await echoes(['threads', 'ready']);
    const startedAt = performance.now();
    await expect(pool.run({ kind: 'spin' }, { deadlineMs: 300 })).rejects.toMatchObject({ code: 'deadline', limit: 300 });
    expect(performance.now() - startedAt).toBeLessThan(1_400);
  });

  it('fails a task that outgrows its heap cap and replaces the thread', async () => {
    await echoes(['threads', 'ready']);
    await expect(pool.run({ kind: 'allocate' }, { deadlineMs: 10_000 })).rejects.toMatchObject({ code: 'out_of_memory', limit: 64 });
    await expect(echoes(['after', 'memory'])).resolves.toHaveLength(2);
  });

  it('fails only the task of a thread that dies', async () => {
    await expect(pool.run({ kind: 'exit' })).rejects.toThrow();
    await expect(echoes(['p', 'q', 'r'])).resolves.toHaveLength(3);
  });

  it('counts its deadline from the start of each task, so tasks queued behind slow ones get their full time', async () => {
    const single = await TaskPool.start<TestTask, TestTaskResult>({ taskModule: TASK_MODULE, threads: 1, deadlineMs: 1_000, maxHeapMb: 64, maxQueue: 4 }, { kind: 'echo', value: 'warm' });
    try {
      const slow = [0, 1, 2].map(() => single.run({ kind: 'sleep', ms: 600 }));
      await expect(Promise.all(slow)).resolves.toHaveLength(3);
      // The caller's own deadline does count the wait.
      const blocking = single.run({ kind: 'sleep', ms: 600 });
      const startedAt = performance.now();
      await expect(single.run({ kind: 'echo', value: 'late' }, { deadlineMs: 200 })).rejects.toMatchObject({ code: 'deadline', limit: 200 });
      expect(performance.now() - startedAt).toBeLessThan(500);
      expect(single.queued).toBe(0);
      await blocking;
    } finally {
      await single.close();
    }
  });

  it('does not charge the start-up of a replacement thread to the next task', async () => {
    // Loading the task module in a new thread takes far longer than this deadline.
    const single = await TaskPool.start<TestTask, TestTaskResult>({ taskModule: TASK_MODULE, threads: 1, deadlineMs: 200, maxHeapMb: 64, maxQueue: 4 }, { kind: 'echo', value: 'warm' });
    try {
      await expect(single.run({ kind: 'spin' })).rejects.toMatchObject({ code: 'deadline' });
      await expect(single.run({ kind: 'echo', value: 'after' })).resolves.toMatchObject({ value: 'AFTER' });
    } finally {
      await single.close();
    }
  });

  it('refuses to start when its threads cannot load the task module', async () => {
    const start = TaskPool.start<TestTask, TestTaskResult>(
      { taskModule: resolve(__dirname, 'fixtures', 'missing.task.ts'), threads: 1, deadlineMs: 5_000, maxHeapMb: 64, maxQueue: 1 },
      { kind: 'echo', value: 'warm' },
    );
    await expect(start).rejects.toThrow(/missing\.task/);
  });

  it('loads a compiled task module without the TypeScript hook, dots in its name or not', async () => {
    // As in dist/: "name.task" names "name.task.js", which needs no SWC in its thread.
    const folder = mkdtempSync(join(tmpdir(), 'sift-task-pool-'));
    writeFileSync(join(folder, 'probe.task.js'), "exports.runTask = async () => ({ value: String('.ts' in require.extensions), threadId: 0 });\n");
    const compiled = await TaskPool.start<TestTask, TestTaskResult>({ taskModule: join(folder, 'probe.task'), threads: 1, deadlineMs: 5_000, maxHeapMb: 64, maxQueue: 4 });
    try {
      await expect(compiled.run({ kind: 'echo', value: 'hook?' })).resolves.toMatchObject({ value: 'false' });
    } finally {
      await compiled.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('rejects queued and later tasks once closed', async () => {
    const closing = await TaskPool.start<TestTask, TestTaskResult>({ taskModule: TASK_MODULE, threads: 1, deadlineMs: 5_000, maxHeapMb: 64, maxQueue: 4 });
    const pending = Promise.allSettled([closing.run({ kind: 'sleep', ms: 1_000 }), closing.run({ kind: 'echo', value: 'queued' })]);
    await closing.close();
    const settled = await pending;
    expect(settled.every((result) => result.status === 'rejected')).toBe(true);
    await expect(closing.run({ kind: 'echo', value: 'late' })).rejects.toMatchObject({ code: 'closed' });
  });

  it('reports no thread error that belongs to no task', () => {
    expect(threadErrors).toEqual([]);
  });
});
