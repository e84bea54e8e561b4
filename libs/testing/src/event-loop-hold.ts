/** What `work` returned, how long it took, and the longest the event loop went without running a short timer. */
export interface LoopHold<Value> {
  value: Value;
  elapsedMs: number;
  longestStallMs: number;
}

/**
 * Runs `work` while a timer ticks every `tickMs`: CPU work on the event loop shows as a stall of its whole length,
 * work in a thread or another process only as the loop's own turns. Compare the stall with the elapsed time (a
 * share, not a fixed figure: on a busy machine every turn and the work stretch alike).
 */
export async function loopHoldDuring<Value>(work: () => Promise<Value>, tickMs = 5): Promise<LoopHold<Value>> {
  const startedAt = performance.now();
  let lastTurn = startedAt;
  let longestStallMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longestStallMs = Math.max(longestStallMs, now - lastTurn);
    lastTurn = now;
  }, tickMs);
  try {
    const value = await work();
    const finishedAt = performance.now();
    return { value, elapsedMs: finishedAt - startedAt, longestStallMs: Math.max(longestStallMs, finishedAt - lastTurn) };
  } finally {
    clearInterval(ticker);
  }
}
