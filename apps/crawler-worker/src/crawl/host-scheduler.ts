import { setTimeout as delay } from 'node:timers/promises';

export interface HostSchedulerSettings {
  /** Requests in flight to one host at a time. */
  maxConcurrentPerHost: number;
  /** Crawl-delay above this is clamped, so one site cannot stall a crawl until its deadline. */
  maxCrawlDelayMs: number;
}

interface HostState {
  active: number;
  waiting: Array<() => void>;
  crawlDelayMs: number;
  /** No request to this host starts before this time (crawl delay or a Retry-After backoff). */
  notBefore: number;
}

/** Per-host politeness: a concurrency cap, the robots.txt Crawl-delay and backoff after 429/503. */
export class HostScheduler {
  private readonly hosts = new Map<string, HostState>();

  constructor(
    private readonly settings: HostSchedulerSettings,
    private readonly now: () => number = Date.now,
  ) {}

  setCrawlDelay(host: string, crawlDelayMs: number): void {
    this.stateOf(host).crawlDelayMs = Math.min(Math.max(0, crawlDelayMs), this.settings.maxCrawlDelayMs);
  }

  /** Holds every request to `host` until `waitMs` from now. */
  backOff(host: string, waitMs: number): void {
    const state = this.stateOf(host);
    state.notBefore = Math.max(state.notBefore, this.now() + waitMs);
  }

  /** Waits for a slot on `host` and returns its release; rejects when `signal` aborts. */
  async acquire(host: string, signal: AbortSignal): Promise<() => void> {
    const state = this.stateOf(host);
    while (state.active >= this.capacityOf(state)) {
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => reject(signal.reason);
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        state.waiting.push(() => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    }
    state.active += 1;
    const release = (): void => {
      state.active -= 1;
      state.waiting.shift()?.();
    };
    try {
      // Re-read after every wait: another request may have pushed notBefore further while this one slept.
      for (let waitMs = state.notBefore - this.now(); waitMs > 0; waitMs = state.notBefore - this.now()) {
        await delay(waitMs, undefined, { signal });
      }
      if (state.crawlDelayMs > 0) state.notBefore = this.now() + state.crawlDelayMs;
    } catch (error) {
      release();
      throw error;
    }
    return release;
  }

  private capacityOf(state: HostState): number {
    // A crawl delay means one request at a time, spaced by the delay.
    return state.crawlDelayMs > 0 ? 1 : this.settings.maxConcurrentPerHost;
  }

  private stateOf(host: string): HostState {
    let state = this.hosts.get(host);
    if (!state) {
      state = { active: 0, waiting: [], crawlDelayMs: 0, notBefore: 0 };
      this.hosts.set(host, state);
    }
    return state;
  }
}
