import { HostConcurrency, type HostResponse, type LimitChange } from './host-concurrency';

/** One round trip: as many requests as the limit allows start together, then all end as `response` after `latencyMs`. */
function round(host: HostConcurrency, latencyMs: number, response: HostResponse = 'answered'): LimitChange[] {
  const requests = Array.from({ length: host.limit }, (_, index) => host.started(index + 1));
  return requests.map((request) => host.finished(request, response, latencyMs)).filter((change) => change !== undefined);
}

describe('HostConcurrency', () => {
  it('starts at the initial limit, within the ceiling', () => {
    expect(new HostConcurrency({ initial: 4, ceiling: 16 }).limit).toBe(4);
    expect(new HostConcurrency({ initial: 8, ceiling: 2 }).limit).toBe(2);
    expect(new HostConcurrency({ initial: 0, ceiling: 2 }).limit).toBe(1);
  });

  it('doubles per round of quick, steady answers until the host first pushes back, up to the ceiling and no further', () => {
    const host = new HostConcurrency({ initial: 3, ceiling: 20 });
    const limits: number[] = [];
    for (let trip = 0; trip < 5; trip += 1) {
      round(host, 300 + (trip % 3) * 20);
      limits.push(host.limit);
    }
    expect(limits).toEqual([6, 12, 20, 20, 20]);
  });

  it('grows by one per round once the host has pushed back, up to the ceiling', () => {
    const host = new HostConcurrency({ initial: 16, ceiling: 16 });
    round(host, 300);
    round(host, 300, 'throttled');
    expect(host.limit).toBe(8);
    const limits: number[] = [];
    for (let trip = 0; trip < 10; trip += 1) {
      round(host, 300 + (trip % 3) * 20);
      limits.push(host.limit);
    }
    expect(limits).toEqual([9, 10, 11, 12, 13, 14, 15, 16, 16, 16]);
  });

  it('does not grow a limit the crawl never filled: answers at two in flight prove nothing about sixteen', () => {
    const host = new HostConcurrency({ initial: 4, ceiling: 16 });
    for (let answer = 0; answer < 100; answer += 1) host.finished(host.started(2), 'answered', 300);
    expect(host.limit).toBe(4);
  });

  it('holds while the host answers between 1.5 and 2.5 times its baseline, neither growing nor shrinking', () => {
    const host = new HostConcurrency({ initial: 4, ceiling: 16 });
    round(host, 300);
    expect(host.limit).toBe(8);
    for (let trip = 0; trip < 10; trip += 1) round(host, 600);
    expect(host.limit).toBe(8);
  });

  it('halves once per round of 429s, not once per 429: the requests of one round were sent under the old limit', () => {
    const host = new HostConcurrency({ initial: 16, ceiling: 16 });
    expect(round(host, 300, 'throttled')).toEqual(['throttled']);
    expect(host.limit).toBe(8);
    expect(round(host, 300, 'throttled')).toEqual(['throttled']);
    expect(host.limit).toBe(4);
    round(host, 300, 'throttled');
    round(host, 300, 'throttled');
    expect(host.limit).toBe(1);
    expect(round(host, 300, 'throttled')).toEqual([]);
    expect(host.limit).toBe(1);
  });

  it('halves when a request gets no answer (timeout, reset)', () => {
    const host = new HostConcurrency({ initial: 6, ceiling: 16 });
    const first = host.started(1);
    const second = host.started(2);
    expect(host.finished(first, 'failed', 15_000)).toBe('failed');
    expect(host.limit).toBe(3);
    // The second was sent before the decrease: it is not counted again.
    expect(host.finished(second, 'failed', 15_000)).toBeUndefined();
    expect(host.limit).toBe(3);
  });

  it('halves within two answers when the host slows from 300 ms to 1.5 s, and again each round it stays slow', () => {
    const host = new HostConcurrency({ initial: 4, ceiling: 16 });
    for (let trip = 0; trip < 12; trip += 1) round(host, 300);
    expect(host.limit).toBe(16);
    const requests = Array.from({ length: 16 }, (_, index) => host.started(index + 1));
    expect(host.finished(requests[0], 'answered', 1500)).toBeUndefined();
    expect(host.finished(requests[1], 'answered', 1500)).toBe('slow');
    for (const request of requests.slice(2)) host.finished(request, 'answered', 1500);
    expect(host.limit).toBe(8);
    round(host, 1500);
    expect(host.limit).toBe(4);
  });

  it('learns its baseline again at one request at a time, so a host that is simply slower climbs back', () => {
    const host = new HostConcurrency({ initial: 4, ceiling: 16 });
    for (let trip = 0; trip < 4; trip += 1) round(host, 300);
    for (let trip = 0; trip < 4 && host.limit > 1; trip += 1) round(host, 1500);
    expect(host.limit).toBe(1);
    for (let trip = 0; trip < 6; trip += 1) round(host, 1500);
    expect(host.limit).toBe(7);
    expect(host.expectedLatencyMs).toBe(1500);
  });

  it('holds a host answering in milliseconds to a floor of 100 ms: the worker\'s own jitter is not the host slowing tenfold', () => {
    const host = new HostConcurrency({ initial: 4, ceiling: 16 });
    const jitter = [2, 3, 40, 2, 90, 5, 2, 60];
    for (let trip = 0; trip < 12; trip += 1) {
      const requests = Array.from({ length: host.limit }, (_, index) => host.started(index + 1));
      requests.forEach((request, index) => host.finished(request, 'answered', jitter[(trip + index) % jitter.length]));
    }
    expect(host.limit).toBe(16);
    // Slowing to a quarter of a second is slow, however quick the host was.
    round(host, 400);
    expect(host.limit).toBe(8);
  });

  it('is not moved by answers that say nothing of the host (a 404, a refused or cancelled request)', () => {
    const host = new HostConcurrency({ initial: 4, ceiling: 16 });
    for (let trip = 0; trip < 10; trip += 1) round(host, 5, 'ignored');
    expect(host.limit).toBe(4);
    expect(host.expectedLatencyMs).toBeUndefined();
  });

  it('does not let one quick answer set the baseline: the settled latency moves slowly', () => {
    const host = new HostConcurrency({ initial: 4, ceiling: 16 });
    round(host, 300);
    host.finished(host.started(1), 'answered', 20);
    // Against a baseline of 20 ms every 300 ms answer would look 15 times slower and halve the limit.
    round(host, 300);
    round(host, 300);
    expect(host.limit).toBeGreaterThanOrEqual(6);
  });
});
