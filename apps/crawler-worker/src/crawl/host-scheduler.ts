import { setTimeout as delay } from 'node:timers/promises';
import { HostConcurrency, type HostResponse, type LimitChange } from './host-concurrency';
import { TooLateToStartError } from './too-late-to-start.error';

export interface HostSchedulerSettings {
  /** Requests in flight to a host the scheduler knows nothing of yet; its answers then move the limit. */
  initialConcurrentPerHost: number;
  /** Requests in flight to one host at most, however quickly it answers. */
  maxConcurrentPerHost: number;
  /** Crawl-delay above this is clamped, so one site cannot stall a crawl until its deadline. */
  maxCrawlDelayMs: number;
}

/**
 * A host nothing is known of gets 8 requests at once, half the ceiling (Scrapy's fixed per-domain default): each round
 * trip of slow start is one the crawl spends below the ceiling, so starting at half leaves one. A host that cannot take
 * 8 says so with its first answers (429/503, no answer, or slowing down), and the limit halves.
 */
export const DEFAULT_HOST_SCHEDULER_SETTINGS: HostSchedulerSettings = {
  initialConcurrentPerHost: 8,
  maxConcurrentPerHost: 16,
  maxCrawlDelayMs: 5000,
};

/**
 * A request is not started when less than this many times the host's usual latency is left before the deadline: it
 * would most likely be cancelled unanswered, the host's work and the slot wasted.
 */
const DEADLINE_LATENCY_MARGIN = 1.5;
/** A host with nothing in flight for this long is forgotten (its learned limit included), so the map stays small. */
const IDLE_HOST_TTL_MS = 5 * 60 * 1000;

/** A request's place in its host's limit, held while the request runs. */
export interface HostSlot {
  /** Gives the place back, telling the host's limit what the request learned. Only the first call counts (of either). */
  release(response: HostResponse): void;
  /**
   * Gives the place back without a request having been sent on it: the limit learns nothing, and the host's Crawl-delay
   * spacing, if this place started it and no request took the host since, is not spent on it.
   */
  releaseUnused(): void;
}

interface HostState {
  active: number;
  /** Requests waiting for a place, first come first served. */
  waiting: Array<() => void>;
  crawlDelayMs: number;
  /** No request to this host starts before this time (crawl delay or a Retry-After backoff). */
  notBefore: number;
  concurrency: HostConcurrency;
  lastUsedAt: number;
}

/**
 * Per-host politeness: a concurrency limit learned from the host's answers (HostConcurrency) under a ceiling, the
 * robots.txt Crawl-delay (one request at a time, spaced) and backoff after 429/503. One scheduler can serve every
 * crawl of a worker, so two crawls of one site share its limit instead of doubling it.
 */
export class HostScheduler {
  private readonly hosts = new Map<string, HostState>();
  private lastSweepAt: number;

  constructor(
    private readonly settings: HostSchedulerSettings = DEFAULT_HOST_SCHEDULER_SETTINGS,
    private readonly onLimitChange: (change: LimitChange) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.lastSweepAt = now();
  }

  /** The most requests one host may ever get at once. */
  get ceiling(): number {
    return this.settings.maxConcurrentPerHost;
  }

  /** Requests in flight over all hosts. */
  get inFlight(): number {
    let total = 0;
    for (const state of this.hosts.values()) total += state.active;
    return total;
  }

  /** The highest limit among hosts with requests in flight or waiting; 0 when there are none. */
  get highestBusyLimit(): number {
    let highest = 0;
    for (const state of this.hosts.values()) {
      if (state.active > 0 || state.waiting.length > 0) highest = Math.max(highest, this.capacityOf(state));
    }
    return highest;
  }

  /** Requests `host` may have in flight now. */
  limitOf(host: string): number {
    const state = this.hosts.get(host);
    return state ? this.capacityOf(state) : Math.max(1, Math.min(this.settings.initialConcurrentPerHost, this.settings.maxConcurrentPerHost));
  }

  setCrawlDelay(host: string, crawlDelayMs: number): void {
    this.stateOf(host).crawlDelayMs = Math.min(Math.max(0, crawlDelayMs), this.settings.maxCrawlDelayMs);
  }

  /** Holds every request to `host` until `waitMs` from now. */
  backOff(host: string, waitMs: number): void {
    const state = this.stateOf(host);
    state.notBefore = Math.max(state.notBefore, this.now() + waitMs);
  }

  /**
   * Waits for a place on `host` and returns it; rejects when `signal` aborts, and with TooLateToStartError when the
   * request could not be answered before `deadline` (epoch ms).
   */
  async acquire(host: string, signal: AbortSignal, deadline = Number.POSITIVE_INFINITY): Promise<HostSlot> {
    const state = this.stateOf(host);
    this.assertTimeLeft(host, state, Math.max(this.now(), state.notBefore), deadline);
    await this.placeIn(state, signal);
    try {
      // Re-read after every wait: another request may have pushed notBefore further while this one slept.
      for (let startAt = Math.max(this.now(), state.notBefore); ; startAt = Math.max(this.now(), state.notBefore)) {
        this.assertTimeLeft(host, state, startAt, deadline);
        const waitMs = startAt - this.now();
        if (waitMs <= 0) break;
        await delay(waitMs, undefined, { signal });
      }
    } catch (error) {
      this.giveBack(state);
      throw error;
    }
    const spacedFrom = state.notBefore;
    if (state.crawlDelayMs > 0) state.notBefore = this.now() + state.crawlDelayMs;
    const spacedUntil = state.notBefore;
    const startedAt = this.now();
    const request = state.concurrency.started(state.active);
    let released = false;
    const release = (response: HostResponse): void => {
      if (released) return;
      released = true;
      const change = state.concurrency.finished(request, response, this.now() - startedAt);
      if (change) this.onLimitChange(change);
      this.giveBack(state);
    };
    return {
      release,
      releaseUnused: () => {
        // A backoff set meanwhile, or another place's spacing, moved notBefore on: that stands.
        if (!released && state.notBefore === spacedUntil) state.notBefore = spacedFrom;
        release('ignored');
      },
    };
  }

  private assertTimeLeft(host: string, state: HostState, startAt: number, deadline: number): void {
    if (startAt + (state.concurrency.expectedLatencyMs ?? 0) * DEADLINE_LATENCY_MARGIN > deadline) throw new TooLateToStartError(host);
  }

  private placeIn(state: HostState, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (state.waiting.length === 0 && state.active < this.capacityOf(state)) {
      state.active += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const granted = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      // A waiter that gave up leaves the queue, or the next free place would be handed to it and lost.
      const onAbort = (): void => {
        const index = state.waiting.indexOf(granted);
        if (index >= 0) state.waiting.splice(index, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      state.waiting.push(granted);
    });
  }

  private giveBack(state: HostState): void {
    state.active -= 1;
    state.lastUsedAt = this.now();
    // The limit may have grown with this answer: every place it opened goes to a waiter.
    while (state.active < this.capacityOf(state)) {
      const next = state.waiting.shift();
      if (!next) break;
      state.active += 1;
      next();
    }
  }

  private capacityOf(state: HostState): number {
    // A crawl delay means one request at a time, spaced by the delay.
    return state.crawlDelayMs > 0 ? 1 : state.concurrency.limit;
  }

  private stateOf(host: string): HostState {
    let state = this.hosts.get(host);
    if (!state) {
      this.forgetIdleHosts();
      state = {
        active: 0,
        waiting: [],
        crawlDelayMs: 0,
        notBefore: 0,
        concurrency: new HostConcurrency({ initial: this.settings.initialConcurrentPerHost, ceiling: this.settings.maxConcurrentPerHost }),
        lastUsedAt: this.now(),
      };
      this.hosts.set(host, state);
    }
    return state;
  }

  private forgetIdleHosts(): void {
    const now = this.now();
    if (now - this.lastSweepAt < IDLE_HOST_TTL_MS) return;
    this.lastSweepAt = now;
    for (const [host, state] of this.hosts) {
      if (state.active === 0 && state.waiting.length === 0 && state.notBefore <= now && now - state.lastUsedAt >= IDLE_HOST_TTL_MS) this.hosts.delete(host);
    }
  }
}
