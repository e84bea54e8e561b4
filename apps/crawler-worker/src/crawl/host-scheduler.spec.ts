import type { LimitChange } from './host-concurrency';
import { HostScheduler, type HostSlot } from './host-scheduler';
import { TooLateToStartError } from './too-late-to-start.error';

const HOST = 'docs.example.com';

/** A clock the test moves by hand: latencies are what the test says they are. */
class FakeClock {
  time = 1_000_000;
  readonly now = (): number => this.time;
  advance(ms: number): void {
    this.time += ms;
  }
}

function schedulerOf(clock: FakeClock, changes: LimitChange[] = []): HostScheduler {
  return new HostScheduler({ initialConcurrentPerHost: 2, maxConcurrentPerHost: 4, maxCrawlDelayMs: 5000 }, (change) => changes.push(change), clock.now);
}

/** Whether `promise` has settled once pending callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('HostScheduler', () => {
  const signal = new AbortController().signal;

  it('lets a host have as many requests in flight as its limit, and hands a freed place to the first waiter', async () => {
    const clock = new FakeClock();
    const scheduler = schedulerOf(clock);
    const first = await scheduler.acquire(HOST, signal);
    await scheduler.acquire(HOST, signal);
    const third = scheduler.acquire(HOST, signal);
    const fourth = scheduler.acquire(HOST, signal);
    expect(await settled(third)).toBe(false);
    expect(scheduler.inFlight).toBe(2);
    // Another host is not held up by this one.
    await scheduler.acquire('other.example.com', signal);

    first.release('ignored');
    expect(await settled(third)).toBe(true);
    expect(await settled(fourth)).toBe(false);
    expect(scheduler.inFlight).toBe(3);
  });

  it('raises the limit after a round of quick answers at the limit, and lets the waiters it opened places for start', async () => {
    const clock = new FakeClock();
    const changes: LimitChange[] = [];
    const scheduler = schedulerOf(clock, changes);
    const running = [await scheduler.acquire(HOST, signal), await scheduler.acquire(HOST, signal)];
    const waiting = [scheduler.acquire(HOST, signal), scheduler.acquire(HOST, signal)];
    clock.advance(300);
    running[0].release('answered');
    running[1].release('answered');
    expect(changes).toEqual(['grew']);
    // Doubled (the host has not pushed back yet): two places freed and two more opened.
    expect(scheduler.limitOf(HOST)).toBe(4);
    expect(await Promise.all(waiting.map(settled))).toEqual([true, true]);
    expect(scheduler.inFlight).toBe(2);
    const more = [await scheduler.acquire(HOST, signal), await scheduler.acquire(HOST, signal)];
    expect(scheduler.inFlight).toBe(4);
    expect(await settled(scheduler.acquire(HOST, signal))).toBe(false);
    for (const slot of more) slot.release('ignored');
  });

  it('never goes above its ceiling, however quick the host', async () => {
    const clock = new FakeClock();
    const scheduler = schedulerOf(clock);
    for (let trip = 0; trip < 10; trip += 1) {
      const slots: HostSlot[] = [];
      for (let place = 0; place < scheduler.limitOf(HOST); place += 1) slots.push(await scheduler.acquire(HOST, signal));
      clock.advance(100);
      for (const slot of slots) slot.release('answered');
    }
    expect(scheduler.limitOf(HOST)).toBe(4);
    expect(scheduler.ceiling).toBe(4);
  });

  it('halves the limit on a 429 and counts a release only once', async () => {
    const clock = new FakeClock();
    const changes: LimitChange[] = [];
    const scheduler = schedulerOf(clock, changes);
    const slot = await scheduler.acquire(HOST, signal);
    slot.release('throttled');
    slot.release('throttled');
    expect(scheduler.limitOf(HOST)).toBe(1);
    expect(scheduler.inFlight).toBe(0);
    expect(changes).toEqual(['throttled']);
  });

  it('takes a waiter that gave up out of the queue, so the next free place goes to one still waiting', async () => {
    const clock = new FakeClock();
    const scheduler = schedulerOf(clock);
    const running = [await scheduler.acquire(HOST, signal), await scheduler.acquire(HOST, signal)];
    const cancelled = new AbortController();
    const givenUp = scheduler.acquire(HOST, cancelled.signal);
    const stillWaiting = scheduler.acquire(HOST, signal);
    cancelled.abort(new Error('crawl cancelled'));
    await expect(givenUp).rejects.toThrow('crawl cancelled');
    running[0].release('ignored');
    expect(await settled(stillWaiting)).toBe(true);
    running[1].release('ignored');
  });

  it('keeps a host with a Crawl-delay at one request at a time, whatever its limit', async () => {
    const clock = new FakeClock();
    const scheduler = schedulerOf(clock);
    scheduler.setCrawlDelay(HOST, 1);
    expect(scheduler.limitOf(HOST)).toBe(1);
    const first = await scheduler.acquire(HOST, signal);
    const second = scheduler.acquire(HOST, signal);
    expect(await settled(second)).toBe(false);
    clock.advance(10);
    first.release('answered');
    expect(await settled(second)).toBe(true);
  });

  it("does not spend a host's Crawl-delay on a place given back unused, and does on one that was used", async () => {
    const clock = new FakeClock();
    const scheduler = schedulerOf(clock);
    scheduler.setCrawlDelay(HOST, 5_000);
    (await scheduler.acquire(HOST, signal)).releaseUnused();
    const next = scheduler.acquire(HOST, signal);
    expect(await settled(next)).toBe(true);
    (await next).release('answered');
    const waiting = new AbortController();
    const spaced = scheduler.acquire(HOST, waiting.signal);
    expect(await settled(spaced)).toBe(false);
    // Waiting out the spacing (a real timer): the place is given up instead.
    waiting.abort();
    await expect(spaced).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('does not start a request the deadline leaves no time for: not after a backoff that ends past it, nor with less than the host usually takes', async () => {
    const clock = new FakeClock();
    const scheduler = schedulerOf(clock);
    const warmUp = await scheduler.acquire(HOST, signal);
    clock.advance(400);
    warmUp.release('answered');

    // The host answers in about 400 ms: with 500 ms left a request is refused, with 700 ms it starts.
    await expect(scheduler.acquire(HOST, signal, clock.time + 500)).rejects.toBeInstanceOf(TooLateToStartError);
    (await scheduler.acquire(HOST, signal, clock.time + 700)).release('ignored');

    scheduler.backOff(HOST, 5_000);
    await expect(scheduler.acquire(HOST, signal, clock.time + 4_000)).rejects.toBeInstanceOf(TooLateToStartError);
    expect(scheduler.inFlight).toBe(0);
    // A host nothing is known of gets its request whatever the time left.
    (await scheduler.acquire('new.example.com', signal, clock.time + 1)).release('ignored');
  });
});
