/** The first poll comes soon (a short task may be done), later ones further apart, never more than 5 s apart. */
export const RESEARCH_POLL_BACK_OFF = { firstMs: 500, factor: 1.5, maximumMs: 5_000 } as const;

export interface WaitOptions {
  /** How long to wait for the task to finish, in milliseconds. */
  timeoutMs: number;
  /** Aborted when the caller goes away: polling stops at once. */
  signal: AbortSignal;
}

/**
 * Polls a research task until it has finished or the wait is over, with back-off, and returns the last state
 * read (finished or not). The task itself runs on in the research worker whatever happens here.
 */
export async function waitForResearch<State>(poll: () => Promise<State>, finished: (state: State) => boolean, options: WaitOptions): Promise<State> {
  const deadline = Date.now() + options.timeoutMs;
  let delayMs: number = RESEARCH_POLL_BACK_OFF.firstMs;
  let state = await poll();
  while (!finished(state) && Date.now() < deadline) {
    await sleep(Math.min(delayMs, deadline - Date.now()), options.signal);
    if (options.signal.aborted) break;
    state = await poll();
    delayMs = Math.min(Math.round(delayMs * RESEARCH_POLL_BACK_OFF.factor), RESEARCH_POLL_BACK_OFF.maximumMs);
  }
  return state;
}

function sleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, milliseconds));
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
