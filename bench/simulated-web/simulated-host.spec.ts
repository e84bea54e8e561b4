import { type SimulatedHost, startSimulatedHost } from './simulated-host';

const QUICK_MS = 10;
const SLOW_MS = 400;

async function timedGet(host: SimulatedHost, path: string): Promise<{ status: number; ms: number }> {
  const startedAt = performance.now();
  const response = await fetch(`${host.origin}${path}`);
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - startedAt };
}

describe('a simulated host that slows down', () => {
  let host: SimulatedHost;

  beforeEach(async () => {
    host = await startSimulatedHost({ fate: () => ({ kind: 'answers', ms: QUICK_MS }), slowdown: { afterPages: 2, ms: SLOW_MS } });
  });

  afterEach(async () => {
    await host.close();
  });

  it('answers at the pages\' own latency until it has served the pages, then every request after the slow latency', async () => {
    const first = await timedGet(host, '/index.html');
    const second = await timedGet(host, '/git.html');
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(Math.max(first.ms, second.ms)).toBeLessThan(SLOW_MS);
    expect(host.slowSince()).toBeUndefined();

    const third = await timedGet(host, '/git-add.html');
    expect(third.status).toBe(200);
    expect(third.ms).toBeGreaterThanOrEqual(SLOW_MS - 5);
    expect(host.slowSince()).toBeDefined();
  });

  it('counts the requests in flight from the moment it slowed', async () => {
    await timedGet(host, '/index.html');
    await timedGet(host, '/git.html');
    // Two slow requests at once: two in flight through the first windows after the slowdown, none once answered.
    await Promise.all([timedGet(host, '/git-add.html'), timedGet(host, '/git-log.html')]);
    const since = host.slowSince();
    if (since === undefined) throw new Error('the host did not slow down');
    const means = host.meanInFlightFrom(since, SLOW_MS / 4);
    expect(means[0]).toBeGreaterThan(1.5);
    expect(means[0]).toBeLessThanOrEqual(2);
    expect(means.slice(1, 3).every((mean) => mean > 1.5 && mean <= 2)).toBe(true);
  });
});
