import { atWallClock } from './wall-clock-timer';

/**
 * Runs `count` timers one after another, each a few milliseconds ahead and started at a random point of a millisecond
 * (the event loop busy for part of one first), and returns how late each called back by the wall clock (ms).
 */
async function wallClockLateness(count: number, schedule: (at: number, callback: () => void) => void): Promise<number[]> {
  const lateness: number[] = [];
  for (let timer = 0; timer < count; timer += 1) {
    const spinUntil = performance.now() + Math.random() * 3;
    while (performance.now() < spinUntil) {
      // Busy: moves where in a millisecond of either clock the timer starts.
    }
    const at = Date.now() + 5 + Math.floor(Math.random() * 5);
    lateness.push(await new Promise<number>((resolve) => schedule(at, () => resolve(Date.now() - at))));
  }
  return lateness;
}

describe('atWallClock', () => {
  // A bare setTimeout(callback, at - Date.now()) fails this: about one in twenty calls back a millisecond early.
  it('never calls back before Date.now() reaches the time', async () => {
    const lateness = await wallClockLateness(400, (at, callback) => atWallClock(at, callback));
    expect(lateness.filter((late) => late < 0)).toEqual([]);
    expect(Math.max(...lateness)).toBeLessThan(1_000);
  });

  it('is cancelled by the function it returns', async () => {
    let called = false;
    const cancel = atWallClock(Date.now() + 20, () => {
      called = true;
    });
    cancel();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(called).toBe(false);
  });
});
