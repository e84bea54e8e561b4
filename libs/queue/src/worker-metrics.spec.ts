import { Registry } from 'prom-client';
import { PagesTakenBack } from './worker-metrics';

describe('PagesTakenBack', () => {
  it('counts the pages a lookup gives back, not its misses, on the registry it is registered on', async () => {
    const registry = new Registry();
    const takenBack = new PagesTakenBack();
    takenBack.register(registry);
    const stored = new Map([['https://example.test/a', { title: 'A' }]]);
    const lookup = takenBack.counted(async (url: string) => stored.get(url) ?? null);

    expect(await lookup('https://example.test/a')).toEqual({ title: 'A' });
    expect(await lookup('https://example.test/b')).toBeNull();
    expect(await lookup('https://example.test/a')).toEqual({ title: 'A' });
    expect(await registry.metrics()).toMatch(/^sift_pages_taken_back_total 2$/m);
  });
});
