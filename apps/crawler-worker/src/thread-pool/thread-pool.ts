import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';

const BOOTSTRAP = resolve(__dirname, 'thread-pool-worker.js');

export interface ThreadPoolOptions<Task, Result> {
  /**
   * Absolute path of the TypeScript module the threads load; it exports `runTask(task: Task): Result`, a pure
   * function of plain data (tasks and results are structured-cloned across the thread boundary).
   */
  taskModule: string;
  /** Threads to start; 0 runs every task on the calling thread. */
  threads: number;
  /** The same function, called in this thread when the pool has no thread (0 asked, or none could start). */
  runInline: (task: Task) => Result;
  /** Called once a thread that died (its task failed with `cause`) has been replaced by a running one. */
  onThreadReplaced?: (cause: Error) => void;
}

/** Why a pool runs its tasks inline although threads were asked for (a thread failed to load its module). */
export class ThreadPoolStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ThreadPoolStartError';
  }
}

type ThreadMessage =
  | { type: 'ready' }
  | { type: 'failed'; error: { name: string; message: string } }
  | { type: 'result'; id: number; result: unknown }
  | { type: 'error'; id: number; error: { name: string; message: string } };

interface PendingTask<Task, Result> {
  id: number;
  task: Task;
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
}

interface PoolThread<Task, Result> {
  worker: Worker;
  current?: PendingTask<Task, Result>;
}

/**
 * A fixed set of worker threads running one CPU-bound function, one task per thread at a time, queued in order.
 * The caller's event loop stays free for I/O and timers while the threads compute, and the work spreads over the
 * machine's cores. A thread that dies fails its current task only and is replaced.
 */
export class ThreadPool<Task, Result> {
  private readonly threads: PoolThread<Task, Result>[] = [];
  private readonly idle: PoolThread<Task, Result>[] = [];
  private readonly queue: PendingTask<Task, Result>[] = [];
  private nextId = 0;
  private closed = false;

  private constructor(private readonly options: ThreadPoolOptions<Task, Result>) {}

  /**
   * Starts the threads and resolves once each has loaded its module, so the first task does not pay for it.
   * Rejects with ThreadPoolStartError (after stopping the threads it started) when a thread cannot load it.
   */
  static async start<Task, Result>(options: ThreadPoolOptions<Task, Result>): Promise<ThreadPool<Task, Result>> {
    const pool = new ThreadPool(options);
    try {
      await Promise.all(Array.from({ length: Math.max(0, options.threads) }, () => pool.addThread()));
    } catch (error) {
      await pool.close();
      throw error;
    }
    return pool;
  }

  /** Threads running; 0 means tasks run inline. */
  get size(): number {
    return this.threads.length;
  }

  run(task: Task): Promise<Result> {
    if (this.closed) return Promise.reject(new Error('the thread pool is closed'));
    if (this.threads.length === 0) {
      try {
        return Promise.resolve(this.options.runInline(task));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise<Result>((resolvePromise, reject) => {
      this.queue.push({ id: this.nextId++, task, resolve: resolvePromise, reject });
      this.dispatch();
    });
  }

  /** Stops the threads; queued and running tasks are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    const stopped = new Error('the thread pool is closed');
    for (const pending of this.queue.splice(0)) pending.reject(stopped);
    const threads = this.threads.splice(0);
    this.idle.splice(0);
    for (const thread of threads) thread.current?.reject(stopped);
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private addThread(): Promise<void> {
    const worker = new Worker(BOOTSTRAP, { workerData: { taskModule: this.options.taskModule } });
    const thread: PoolThread<Task, Result> = { worker };
    return new Promise<void>((resolveStarted, rejectStarted) => {
      let started = false;
      worker.on('message', (message: ThreadMessage) => {
        if (message.type === 'ready') {
          started = true;
          if (this.closed) return void worker.terminate();
          this.threads.push(thread);
          this.makeIdle(thread);
          resolveStarted();
        } else if (message.type === 'failed') {
          void worker.terminate();
          rejectStarted(new ThreadPoolStartError(`a pool thread could not load ${this.options.taskModule}: ${message.error.message}`));
        } else {
          this.settle(thread, message);
        }
      });
      worker.on('error', (error) => {
        if (!started) rejectStarted(new ThreadPoolStartError(`a pool thread failed to start: ${error.message}`));
        else this.replace(thread, error);
      });
      worker.on('exit', (code) => {
        if (!started) rejectStarted(new ThreadPoolStartError(`a pool thread exited (${code}) while starting`));
        else this.replace(thread, new Error(`a pool thread exited (${code})`));
      });
    });
  }

  private settle(thread: PoolThread<Task, Result>, message: Extract<ThreadMessage, { type: 'result' | 'error' }>): void {
    const pending = thread.current;
    if (!pending || pending.id !== message.id) return;
    thread.current = undefined;
    if (message.type === 'result') pending.resolve(message.result as Result);
    else pending.reject(Object.assign(new Error(message.error.message), { name: message.error.name }));
    this.makeIdle(thread);
  }

  /** A thread that crashed or exited fails its current task alone; a new thread takes its place. */
  private replace(thread: PoolThread<Task, Result>, error: Error): void {
    const index = this.threads.indexOf(thread);
    if (index === -1) return;
    this.threads.splice(index, 1);
    const idleIndex = this.idle.indexOf(thread);
    if (idleIndex !== -1) this.idle.splice(idleIndex, 1);
    thread.current?.reject(error);
    thread.current = undefined;
    if (this.closed) return;
    this.addThread().then(
      () => this.options.onThreadReplaced?.(error),
      () => {
        // No thread left to run them: queued tasks run inline rather than wait forever.
        if (this.threads.length > 0) return;
        for (const pending of this.queue.splice(0)) this.runInlinePending(pending);
      },
    );
  }

  private runInlinePending(pending: PendingTask<Task, Result>): void {
    try {
      pending.resolve(this.options.runInline(pending.task));
    } catch (error) {
      pending.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private makeIdle(thread: PoolThread<Task, Result>): void {
    this.idle.push(thread);
    this.dispatch();
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const thread = this.idle.shift() as PoolThread<Task, Result>;
      const pending = this.queue.shift() as PendingTask<Task, Result>;
      thread.current = pending;
      thread.worker.postMessage({ id: pending.id, task: pending.task });
    }
  }
}
