import { valueWithin } from './deadline';

describe('valueWithin', () => {
  it("gives the work's value when it settles in time", async () => {
    await expect(valueWithin(Promise.resolve('stored'), 1_000, 'late')).resolves.toBe('stored');
  });

  it('gives the fallback when the work has not settled in time, and the work goes on', async () => {
    let finish: (value: string) => void = () => undefined;
    const work = new Promise<string>((resolve) => (finish = resolve));
    await expect(valueWithin(work, 10, 'late')).resolves.toBe('late');
    finish('stored');
    await expect(work).resolves.toBe('stored');
  });
});
