import { EventLoopWatch } from './event-loop-watch';

function blockFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Spinning is the point: nothing else runs in the process meanwhile.
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The worker's check (5 s blocks, reported for 30 s) at a smaller scale: 500 ms blocks, reported for 1.5 s. The
// margins allow for a busy machine delaying a timer on its own.
describe('EventLoopWatch', () => {
  let watch: EventLoopWatch;
  const blocks: number[] = [];

  beforeEach(() => {
    blocks.length = 0;
    watch = new EventLoopWatch({ blockedAfterMs: 500, reportForMs: 1_500, tickMs: 20, onBlocked: (blockedMs) => blocks.push(blockedMs) }).start();
  });
  afterEach(() => watch.stop());

  it('is ok while the loop turns', async () => {
    await wait(100);
    expect(watch.health()).toEqual({ ok: true });
  });

  it('reports a block in the first turn after it, before its late timer has run', () => {
    blockFor(1_000);
    const health = watch.health();
    expect(health).toMatchObject({ ok: false, error: expect.stringMatching(/^the event loop was blocked for \d+\.\d s, 0 s ago/) });
    expect(health.blockedMs).toBeGreaterThanOrEqual(900);
    expect(blocks).toEqual([]);
  });

  it('keeps reporting the block for reportForMs after it ended, then is ok again', async () => {
    blockFor(1_000);
    await wait(100);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toBeGreaterThanOrEqual(900);
    expect(watch.health()).toMatchObject({ ok: false });
    await wait(2_000);
    expect(watch.health()).toEqual({ ok: true });
  });

  it('does not count a pause shorter than blockedAfterMs', async () => {
    blockFor(50);
    await wait(100);
    expect(watch.health()).toEqual({ ok: true });
    expect(blocks).toEqual([]);
  });
});
