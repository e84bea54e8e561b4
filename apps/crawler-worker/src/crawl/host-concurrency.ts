/**
 * What one request told of its host: `answered` a 2xx response (its latency is a sample), `throttled` 429 or 503,
 * `failed` no response (timeout, connection refused or reset), `ignored` anything that says nothing of the host's
 * capacity (a 404, a page the egress policy refused, a cancelled or rendered request).
 */
export type HostResponse = 'answered' | 'throttled' | 'failed' | 'ignored';

/** Why the limit moved: `grew`, or the reason it was halved. */
export type LimitChange = 'grew' | 'throttled' | 'failed' | 'slow';

export interface HostConcurrencySettings {
  /** Requests in flight to a host nothing is known of yet. */
  initial: number;
  /** Requests in flight to the host, however quickly it answers. */
  ceiling: number;
}

/**
 * A window grows the limit when its mean latency stays within this much of the baseline: a host that answers as
 * quickly with one more request in flight is not queueing them.
 */
const GROW_LATENCY_RATIO = 1.5;
/** The smoothed latency this far above the baseline means the host is queueing the crawl's requests: halve. */
const SHRINK_LATENCY_RATIO = 2.5;
/**
 * A baseline below this counts as this: a loopback or CDN host answers in a few milliseconds, and the worker's own
 * event loop (extraction, other crawls) adds tens of milliseconds to a measurement, which must not read as the host
 * slowing down tenfold.
 */
const MIN_BASELINE_MS = 100;
/** Weight of a new sample in the smoothed latency: reacts within two or three responses to a host slowing down. */
const SMOOTHED_WEIGHT = 0.25;
/** Weight of a new sample in the settled latency, the baseline's source: a few dozen responses, so one quick 200 cannot set it. */
const SETTLED_WEIGHT = 0.05;

/**
 * The number of requests one host gets at once, learned from its answers (TCP's congestion control, in requests):
 * after each window of `limit` 2xx responses whose mean latency stays near the host's baseline, if the limit was
 * reached during the window (a limit never used proves nothing), the limit doubles until the host first pushes back
 * (slow start: a host answering steadily is at its ceiling within a few round trips) and grows by one
 * after that (additive increase); it is halved on a 429/503, on a request that got no response, or on the smoothed
 * latency rising well above the baseline (multiplicative decrease), which also ends the slow start for good. Between
 * the two latency thresholds it holds.
 *
 * The baseline is the lowest settled latency seen (at least MIN_BASELINE_MS): the host's answer time when the crawl
 * loaded it least. When the limit falls to one it is learned again, since at one request at a time whatever the host
 * answers is its own pace.
 *
 * A response to a request sent before the last decrease is not counted at all: it was sent under the old limit, so a
 * burst of 429s from one round of requests halves the limit once, not once per response.
 */
export class HostConcurrency {
  private current: number;
  private smoothedMs: number | undefined;
  private settledMs: number | undefined;
  private baselineMs: number | undefined;
  private windowResponses = 0;
  private windowLatencyMs = 0;
  private windowSaturated = false;
  /** Until the first decrease: the limit doubles per window instead of growing by one. */
  private slowStart = true;
  private nextRequest = 0;
  /** Requests numbered below this were sent before the last decrease. */
  private firstAfterDecrease = 0;

  constructor(private readonly settings: HostConcurrencySettings) {
    this.current = Math.max(1, Math.min(settings.initial, settings.ceiling));
  }

  get limit(): number {
    return this.current;
  }

  /** How long a request to this host is expected to take, once there are samples. */
  get expectedLatencyMs(): number | undefined {
    return this.smoothedMs;
  }

  /** A request starts, `inFlight` requests to the host with it; returns its number for `finished`. */
  started(inFlight: number): number {
    if (inFlight >= this.current) this.windowSaturated = true;
    return this.nextRequest++;
  }

  /** Request `request` (from `started`) ended as `response`, after `latencyMs`. Returns what changed the limit, if anything. */
  finished(request: number, response: HostResponse, latencyMs: number): LimitChange | undefined {
    if (request < this.firstAfterDecrease || response === 'ignored') return undefined;
    if (response !== 'answered') return this.decrease(response);
    this.smoothedMs = this.smoothedMs === undefined ? latencyMs : this.smoothedMs + SMOOTHED_WEIGHT * (latencyMs - this.smoothedMs);
    this.settledMs = this.settledMs === undefined ? latencyMs : this.settledMs + SETTLED_WEIGHT * (latencyMs - this.settledMs);
    this.baselineMs = Math.min(this.baselineMs ?? this.settledMs, this.settledMs);
    const baselineMs = Math.max(this.baselineMs, MIN_BASELINE_MS);
    if (this.smoothedMs > SHRINK_LATENCY_RATIO * baselineMs) return this.decrease('slow');

    this.windowResponses += 1;
    this.windowLatencyMs += latencyMs;
    if (this.windowResponses < this.current) return undefined;
    const grows = this.windowSaturated && this.windowLatencyMs / this.windowResponses <= GROW_LATENCY_RATIO * baselineMs && this.current < this.settings.ceiling;
    this.resetWindow();
    if (!grows) return undefined;
    this.current = Math.min(this.settings.ceiling, this.slowStart ? this.current * 2 : this.current + 1);
    return 'grew';
  }

  private decrease(reason: 'throttled' | 'failed' | 'slow'): LimitChange | undefined {
    this.firstAfterDecrease = this.nextRequest;
    this.slowStart = false;
    this.resetWindow();
    const before = this.current;
    this.current = Math.max(1, Math.floor(this.current / 2));
    if (this.current === 1) {
      this.smoothedMs = undefined;
      this.settledMs = undefined;
      this.baselineMs = undefined;
    }
    return this.current < before ? reason : undefined;
  }

  private resetWindow(): void {
    this.windowResponses = 0;
    this.windowLatencyMs = 0;
    this.windowSaturated = false;
  }
}
