import { resolve } from 'node:path';
import { Piscina } from 'piscina';

const THREAD_ENTRY = resolve(__dirname, 'task-pool-thread.js');
// A thread compiles its task module with SWC when it starts: seconds on a busy machine, not the task deadline.
const START_DEADLINE_MS = 120_000;
// Longest a task waits for a thread when its caller set no deadline (all threads failing to restart, say).
const MAX_WAIT_MS = 120_000;

export interface TaskPoolOptions {
  /**
   * Absolute path of the TypeScript module the threads load; it exports `runTask(task)`, returning the result or
   * a promise of it, a function of plain data (tasks and results are structured-cloned across the boundary).
   */
  taskModule: string;
  /** Threads kept running (at least 1). */
  threads: number;
  /** Longest a task may run once it has a thread; past it the thread is terminated and replaced. */
  deadlineMs: number;
  /** V8 heap cap of each thread; a task that needs more fails and its thread is replaced. */
  maxHeapMb: number;
  /** Tasks waiting for a thread at most; `run` refuses more at once instead of queueing without bound. */
  maxQueue: number;
  /** Called for a thread's error that belongs to no task (the task's own errors reject its `run`). */
  onThreadError?: (error: Error) => void;
}

export interface TaskRunOptions {
  /** The caller's own deadline, from `run` (waiting for a thread included), e.g. what is left of its request. */
  deadlineMs?: number;
  /**
   * Other work waits on this task's result (a crawl's next requests on a page's links): it takes a free thread before
   * every waiting task that is not urgent. Urgent tasks keep their order among themselves.
   */
  urgent?: boolean;
}

export type TaskPoolErrorCode = 'deadline' | 'out_of_memory' | 'queue_full' | 'closed';

const messages: Record<TaskPoolErrorCode, (limit: number) => string> = {
  deadline: (ms) => `the task ran past its ${ms} ms deadline and its thread was terminated`,
  out_of_memory: (mb) => `the task needed more than its thread's ${mb} MB heap and its thread was terminated`,
  queue_full: (queued) => `${queued} tasks are already waiting for a thread`,
  closed: () => 'the task pool is closed',
};

interface WaitingTask {
  urgent: boolean;
  start: () => void;
  reject: (error: TaskPoolError) => void;
}

/** Why a task did not finish, as opposed to an error its own function threw (which `run` rejects with as is). */
export class TaskPoolError extends Error {
  override readonly name = 'TaskPoolError';

  constructor(
    readonly code: TaskPoolErrorCode,
    /** The limit that was hit: the deadline in ms, the heap in MB or the queue length. */
    readonly limit: number,
    options?: ErrorOptions,
  ) {
    super(messages[code](limit), options);
  }
}

/**
 * A fixed set of worker threads (piscina) running one function on untrusted input. Every task gets a hard deadline
 * that terminates its thread, every thread a heap cap, and the queue a bound, so no input can hold the caller's
 * event loop, grow its memory without bound or pile up work; a thread that is terminated is replaced.
 */
export class TaskPool<Task, Result> {
  private closed = false;
  /**
   * Tasks hold a thread here before they go to piscina, so the pool's deadline counts running time only (one slow
   * document does not use up the deadline of those queued behind it) and the queue bound is exact.
   */
  private running = 0;
  /** Threads that have loaded the task module; a replacement thread counts once it has, so its start-up is not run time. */
  private ready = 0;
  private readonly waiting: WaitingTask[] = [];

  private constructor(
    private readonly pool: Piscina<Task, Result>,
    private readonly options: TaskPoolOptions,
  ) {}

  /**
   * Starts the threads; `warmUp` tasks (one per thread, `warmUpRounds` times) load what the task module requires lazily
   * and have V8 compile its hot code before the first real task waits for it, and prove the module loads: `start`
   * rejects (after stopping the threads) if one fails.
   */
  static async start<Task, Result>(options: TaskPoolOptions, warmUp?: Task, warmUpRounds = 1): Promise<TaskPool<Task, Result>> {
    const threads = Math.max(1, Math.floor(options.threads));
    const pool = new Piscina<Task, Result>({
      filename: THREAD_ENTRY,
      name: 'runTask',
      workerData: { taskModule: options.taskModule },
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: Number.POSITIVE_INFINITY,
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.floor(options.maxHeapMb / 8))) },
    });
    pool.on('error', (error: unknown) => options.onThreadError?.(error instanceof Error ? error : new Error(String(error))));
    const taskPool = new TaskPool(pool, { ...options, threads });
    pool.on('workerCreate', () => {
      taskPool.ready += 1;
      taskPool.startWaiting();
    });
    pool.on('workerDestroy', () => (taskPool.ready -= 1));
    if (warmUp !== undefined) {
      try {
        // One task per thread each round: the threads are idle, so each takes one.
        for (let round = 0; round < warmUpRounds; round += 1) await Promise.all(Array.from({ length: threads }, () => taskPool.runWithin(warmUp, START_DEADLINE_MS)));
      } catch (error) {
        await taskPool.close();
        throw error;
      }
    }
    return taskPool;
  }

  get threads(): number {
    return this.options.threads;
  }

  /** Tasks holding a thread now (running, or handed to piscina to run). */
  get busyThreads(): number {
    return this.running;
  }

  /** Tasks waiting for a thread. */
  get queued(): number {
    return this.waiting.length;
  }

  run(task: Task, { deadlineMs, urgent = false }: TaskRunOptions = {}): Promise<Result> {
    return this.runWithin(task, this.options.deadlineMs, deadlineMs, urgent);
  }

  /** Stops the threads; running and queued tasks are rejected as closed. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const waiting of this.waiting.splice(0)) waiting.reject(new TaskPoolError('closed', 0));
    await this.pool.destroy();
  }

  private async runWithin(task: Task, runLimitMs: number, callerLimitMs?: number, urgent = false): Promise<Result> {
    if (this.closed) throw new TaskPoolError('closed', 0);
    if (this.running + this.waiting.length >= this.options.threads + this.options.maxQueue) throw new TaskPoolError('queue_full', this.options.maxQueue);
    const callerExpiresAt = callerLimitMs === undefined ? Number.POSITIVE_INFINITY : performance.now() + callerLimitMs;
    await this.acquireThread(callerExpiresAt, callerLimitMs ?? 0, urgent);
    try {
      const callerRemainingMs = callerExpiresAt - performance.now();
      const callerBinds = callerRemainingMs < runLimitMs;
      const deadline = new AbortController();
      // piscina terminates the thread of an aborted running task (and starts a new one).
      const timer = setTimeout(() => deadline.abort(), Math.max(1, callerBinds ? callerRemainingMs : runLimitMs));
      try {
        return await this.pool.run(task, { signal: deadline.signal });
      } catch (error) {
        throw this.poolFailure(error, deadline.signal.aborted, callerBinds ? callerLimitMs ?? runLimitMs : runLimitMs) ?? error;
      } finally {
        clearTimeout(timer);
      }
    } finally {
      this.running -= 1;
      this.startWaiting();
    }
  }

  private startWaiting(): void {
    while (this.running < this.ready && this.waiting.length > 0) (this.waiting.shift() as WaitingTask).start();
  }

  /** Resolves once the task holds a thread; rejects if the caller's deadline passes first. */
  private acquireThread(callerExpiresAt: number, callerLimitMs: number, urgent: boolean): Promise<void> {
    if (this.running < this.ready && this.waiting.length === 0) {
      this.running += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiting: WaitingTask = {
        urgent,
        start: () => {
          clearTimeout(timer);
          this.running += 1;
          resolve();
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      const waitMs = Math.min(callerExpiresAt - performance.now(), MAX_WAIT_MS);
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiting), 1);
        reject(new TaskPoolError('deadline', Number.isFinite(callerExpiresAt) ? callerLimitMs : MAX_WAIT_MS));
      }, Math.max(0, waitMs));
      // An urgent task goes behind the urgent ones already waiting, before the rest.
      const firstNotUrgent = urgent ? this.waiting.findIndex((other) => !other.urgent) : -1;
      if (firstNotUrgent === -1) this.waiting.push(waiting);
      else this.waiting.splice(firstNotUrgent, 0, waiting);
    });
  }

  private poolFailure(error: unknown, timedOut: boolean, limitMs: number): TaskPoolError | undefined {
    if (timedOut) return new TaskPoolError('deadline', limitMs, { cause: error });
    // Errors made by Node or piscina may come from another realm (Jest's sandbox), so no `instanceof Error` here.
    const { code, message } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; message?: unknown };
    if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return new TaskPoolError('out_of_memory', this.options.maxHeapMb, { cause: error });
    }
    if (this.closed || message === 'Terminating worker thread') return new TaskPoolError('closed', 0, { cause: error });
    return undefined;
  }
}
