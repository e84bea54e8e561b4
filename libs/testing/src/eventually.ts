/**
 * Polls `probe` until it gives a value (anything but undefined) and returns it; fails naming `what` once `timeoutMs`
 * has passed. For states another process reaches in its own time (a worker finishing a task, a connection coming back).
 */
export async function eventually<Value>(what: string, probe: () => Promise<Value | undefined>, timeoutMs = 60_000, intervalMs = 200): Promise<Value> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Reads until `accept` takes what `read` gives and returns it; fails with the last reading once `timeoutMs` has passed. */
export async function readUntil<Value>(read: () => Promise<Value>, accept: (value: Value) => boolean, timeoutMs: number, intervalMs = 200): Promise<Value> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** What `call` answered and how long it took, in milliseconds. */
export async function timed<Value>(call: () => Promise<Value>): Promise<{ answer: Value; ms: number }> {
  const startedAt = performance.now();
  const answer = await call();
  return { answer, ms: performance.now() - startedAt };
}
