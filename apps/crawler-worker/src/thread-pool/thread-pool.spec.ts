import { resolve } from 'node:path';
import { TestTask, TestTaskResult, runTask } from './fixtures/test-tasks.task';
import { ThreadPool, ThreadPoolStartError } from './thread-pool';

const TASK_MODULE = resolve(__dirname, 'fixtures', 'test-tasks.task.ts');
// Each thread compiles its TypeScript with SWC on start, which takes a few seconds on a busy machine.
jest.setTimeout(60_000);

describe('ThreadPool', () => {
  let pool: ThreadPool<TestTask, TestTaskResult>;
  let replaced: Promise<Error>;

  beforeAll(async () => {
    let onReplaced: (cause: Error) => void = () => undefined;
    replaced = new Promise((resolveReplaced) => (onReplaced = resolveReplaced));
    pool = await ThreadPool.start({ taskModule: TASK_MODULE, threads: 2, runInline: runTask, onThreadReplaced: (cause) => onReplaced(cause) });
  });

  afterAll(() => pool.close());

  it('runs tasks in its threads, spread over all of them', async () => {
    const results = await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map((value) => pool.run({ kind: 'echo', value })));
    expect(results.map((result) => result.value)).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
    expect(results.every((result) => result.threadId !== 0)).toBe(true);
    expect(new Set(results.map((result) => result.threadId)).size).toBe(2);
  });

  it('rejects a task whose function throws, with its message, and goes on', async () => {
    await expect(pool.run({ kind: 'throw', message: 'bad page' })).rejects.toMatchObject({ name: 'RangeError', message: 'bad page' });
    await expect(pool.run({ kind: 'echo', value: 'next' })).resolves.toMatchObject({ value: 'NEXT' });
  });

  it('fails only the task of a thread that dies, and replaces the thread', async () => {
    const threadsBefore = new Set((await Promise.all(['m', 'n'].map((value) => pool.run({ kind: 'echo', value })))).map((result) => result.threadId));
    const died = pool.run({ kind: 'exit' });
    const others = Promise.all(['x', 'y', 'z'].map((value) => pool.run({ kind: 'echo', value })));
    await expect(died).rejects.toThrow(/exited \(3\)/);
    expect((await others).map((result) => result.value)).toEqual(['X', 'Y', 'Z']);
    await expect(replaced).resolves.toThrow(/exited \(3\)/);
    expect(pool.size).toBe(2);
    const after = await Promise.all(['p', 'q', 'r', 's'].map((value) => pool.run({ kind: 'echo', value })));
    expect(after.map((result) => result.value)).toEqual(['P', 'Q', 'R', 'S']);
    expect(after.some((result) => !threadsBefore.has(result.threadId))).toBe(true);
  });

  it('runs tasks inline with 0 threads', async () => {
    const inline = await ThreadPool.start({ taskModule: TASK_MODULE, threads: 0, runInline: runTask });
    expect(inline.size).toBe(0);
    await expect(inline.run({ kind: 'echo', value: 'here' })).resolves.toEqual({ value: 'HERE', threadId: 0 });
    await expect(inline.run({ kind: 'throw', message: 'inline' })).rejects.toThrow('inline');
    await inline.close();
  });

  it('refuses to start when its threads cannot load the task module', async () => {
    const start = ThreadPool.start({ taskModule: resolve(__dirname, 'fixtures', 'missing.task.ts'), threads: 1, runInline: runTask });
    await expect(start).rejects.toBeInstanceOf(ThreadPoolStartError);
  });

  it('rejects queued tasks when closed', async () => {
    const closing = await ThreadPool.start({ taskModule: TASK_MODULE, threads: 1, runInline: runTask });
    const queued = expect(Promise.all([closing.run({ kind: 'echo', value: 'first' }), closing.run({ kind: 'echo', value: 'second' })])).rejects.toThrow(
      'the thread pool is closed',
    );
    await closing.close();
    await queued;
    await expect(closing.run({ kind: 'echo', value: 'late' })).rejects.toThrow('the thread pool is closed');
  });
});
