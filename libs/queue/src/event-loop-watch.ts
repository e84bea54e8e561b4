/** The event loop's state as a worker's GET /health reports it. */
export interface EventLoopHealth {
  ok: boolean;
  /** The longest recent block: how long the loop ran nothing else (absent when none was recent). */
  blockedMs?: number;
  /** How long ago that block ended. */
  endedSecondsAgo?: number;
  error?: string;
}

export interface EventLoopWatchOptions {
  /** A pause of the loop at least this long is a block: jobs' locks go unrenewed, probes and heartbeats unanswered. */
  blockedAfterMs?: number;
  /**
   * How long a block keeps the health answer at 503 after it ended. A worker that freezes on every job answers
   * probes between two freezes; reporting only the moment would let a probe that lands in a gap say ok.
   */
  reportForMs?: number;
  /** Period of the timer whose lateness measures the pauses. */
  tickMs?: number;
  /** Called once per block, when it ends. */
  onBlocked?: (blockedMs: number) => void;
}

export const EVENT_LOOP_WATCH: Required<Omit<EventLoopWatchOptions, 'onBlocked'>> = { blockedAfterMs: 5_000, reportForMs: 30_000, tickMs: 500 };

interface Block {
  durationMs: number;
  endedAt: number;
}

/**
 * Measures how long the event loop goes without running a timer. A job that runs synchronously (a regular
 * expression backtracking, a huge schema compiled) stops everything else in the process: BullMQ's lock renewals,
 * the consumer heartbeat, GET /health itself. During the block nothing can answer; afterwards this remembers it.
 * A timer's lateness rather than monitorEventLoopDelay: the histogram tells how long, not when.
 */
export class EventLoopWatch {
  private readonly settings: Required<Omit<EventLoopWatchOptions, 'onBlocked'>>;
  private lastTickAt = performance.now();
  private recentBlocks: Block[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: EventLoopWatchOptions = {}) {
    this.settings = {
      blockedAfterMs: options.blockedAfterMs ?? EVENT_LOOP_WATCH.blockedAfterMs,
      reportForMs: options.reportForMs ?? EVENT_LOOP_WATCH.reportForMs,
      tickMs: options.tickMs ?? EVENT_LOOP_WATCH.tickMs,
    };
  }

  start(): this {
    this.lastTickAt = performance.now();
    this.timer = setInterval(() => this.tick(), this.settings.tickMs);
    // The watch never keeps a process alive that has nothing else to do.
    this.timer.unref();
    return this;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Not ok while a block ended less than reportForMs ago, or while one is ending right now (the timer has not run yet). */
  health(): EventLoopHealth {
    const now = performance.now();
    const blocks = this.blocksSince(now - this.settings.reportForMs);
    // A probe answered in the loop's first turn after a block runs before the late timer has recorded it.
    const pauseMs = now - this.lastTickAt - this.settings.tickMs;
    if (pauseMs >= this.settings.blockedAfterMs) blocks.push({ durationMs: pauseMs, endedAt: now });
    if (blocks.length === 0) return { ok: true };
    const longest = blocks.reduce((longer, block) => (block.durationMs > longer.durationMs ? block : longer));
    const blockedSeconds = (longest.durationMs / 1000).toFixed(1);
    const endedSecondsAgo = Math.round((now - longest.endedAt) / 100) / 10;
    return {
      ok: false,
      blockedMs: Math.round(longest.durationMs),
      endedSecondsAgo,
      error: `the event loop was blocked for ${blockedSeconds} s, ${endedSecondsAgo} s ago: a job ran synchronously and held every other job, lock renewal and probe`,
    };
  }

  private tick(): void {
    const now = performance.now();
    const pauseMs = now - this.lastTickAt - this.settings.tickMs;
    this.lastTickAt = now;
    if (pauseMs >= this.settings.blockedAfterMs) {
      this.recentBlocks = [...this.blocksSince(now - this.settings.reportForMs), { durationMs: pauseMs, endedAt: now }];
      this.options.onBlocked?.(Math.round(pauseMs));
    }
  }

  private blocksSince(since: number): Block[] {
    return this.recentBlocks.filter((block) => block.endedAt >= since);
  }
}
