/**
 * Calls `callback` once `Date.now()` has reached `at` (epoch ms), and returns what cancels it. `setTimeout` alone can
 * fire a millisecond early by the wall clock: timers run on the event loop's monotonic clock, whose milliseconds do
 * not line up with `Date.now()`'s, so a callback that then compares `Date.now()` with `at` finds it not yet due (about
 * one timer in twenty on a two-core machine) and, with nothing to call it again, waits for whatever else comes. Here
 * the timer is armed again for the rest.
 */
export function atWallClock(at: number, callback: () => void): () => void {
  let timer: NodeJS.Timeout;
  const arm = (): void => {
    timer = setTimeout(() => (Date.now() >= at ? callback() : arm()), Math.max(0, at - Date.now()));
  };
  arm();
  return () => clearTimeout(timer);
}
