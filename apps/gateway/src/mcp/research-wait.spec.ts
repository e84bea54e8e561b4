import { waitForResearch } from './research-wait';

describe('waitForResearch', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** A task that reports `running` until its nth poll; records when each poll happened. */
  function taskFinishingAtPoll(n: number) {
    const pollTimes: number[] = [];
    const start = Date.now();
    const poll = async () => {
      pollTimes.push(Date.now() - start);
      return pollTimes.length >= n ? 'done' : 'running';
    };
    return { poll, pollTimes };
  }

  it('polls with growing pauses, capped at 5 s, until the task has finished', async () => {
    const { poll, pollTimes } = taskFinishingAtPoll(9);
    const waiting = waitForResearch(poll, (state) => state === 'done', { timeoutMs: 60_000, signal: new AbortController().signal });
    await jest.advanceTimersByTimeAsync(60_000);
    await expect(waiting).resolves.toBe('done');
    const pauses = pollTimes.slice(1).map((time, index) => time - pollTimes[index]);
    expect(pauses).toEqual([500, 750, 1125, 1688, 2532, 3798, 5000, 5000]);
  });

  it('returns the unfinished state when the wait is over, having polled one last time at the deadline', async () => {
    const { poll, pollTimes } = taskFinishingAtPoll(1_000);
    const waiting = waitForResearch(poll, (state) => state === 'done', { timeoutMs: 3_000, signal: new AbortController().signal });
    await jest.advanceTimersByTimeAsync(10_000);
    await expect(waiting).resolves.toBe('running');
    expect(pollTimes.at(-1)).toBe(3_000);
  });

  it('stops polling when the caller goes away', async () => {
    const { poll, pollTimes } = taskFinishingAtPoll(1_000);
    const caller = new AbortController();
    const waiting = waitForResearch(poll, (state) => state === 'done', { timeoutMs: 60_000, signal: caller.signal });
    await jest.advanceTimersByTimeAsync(1_000);
    caller.abort();
    await jest.advanceTimersByTimeAsync(0);
    await expect(waiting).resolves.toBe('running');
    // Polled at 0 and 500 ms; the pause until 1250 ms is cut short and no poll follows.
    expect(pollTimes).toEqual([0, 500]);
  });
});
