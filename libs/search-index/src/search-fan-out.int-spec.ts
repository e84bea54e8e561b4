import { createPrismaClient, type PrismaClient } from '@sift/persistence';
import type { FixtureServer } from '@sift/safe-fetch';
import { type SeverableProxy, startLoopbackSearxng, startSeverableProxy } from '@sift/testing';
import { LocalIndexProvider } from './local-index.provider';
import { SearchFanOut } from './search-fan-out';
import { SearxngProvider } from './searxng.provider';

// The fan-out's deadline holds whatever a provider waits on: here the local index's Postgres, reached through a proxy
// that accepts connections and never answers (as an unreachable host does), while SearXNG answers on loopback.
describe('SearchFanOut with a provider that never answers', () => {
  const DEADLINE_MS = 800;
  let searxng: FixtureServer;
  let proxy: SeverableProxy;
  const clients: PrismaClient[] = [];
  let databaseUrl: string;

  beforeAll(async () => {
    searxng = await startLoopbackSearxng([{ url: 'https://lighthouse.example/keepers', title: 'Lighthouse keepers', content: 'Who kept the lights burning.' }]);
    const database = new URL(process.env.DATABASE_URL as string);
    proxy = await startSeverableProxy(database.hostname, Number(database.port || 5432));
    databaseUrl = proxy.urlFor(database.toString());
  });

  afterAll(async () => {
    proxy?.restore();
    await Promise.all([...clients.map((client) => client.$disconnect()), proxy?.close(), searxng?.close()]);
  });

  /** A fan-out whose local index has a pool of its own, so it opens its connections through the proxy as it is now. */
  const fanOut = () => {
    const prisma = createPrismaClient(databaseUrl, 2);
    clients.push(prisma);
    return new SearchFanOut([new LocalIndexProvider(prisma, { statisticsTtlMs: 0 }), new SearxngProvider({ baseUrl: searxng.url, policy: { allowCidrs: [] } })]);
  };

  it('answers at its deadline with the providers that answered, the silent one reported', async () => {
    // Reachable, the local index answers (an empty or a filled list) and so does SearXNG.
    const reachable = await fanOut().search({ query: 'lighthouse keepers', maxResults: 5, deadlineMs: 10_000 });
    expect(reachable.providers.every((provider) => provider.error === undefined)).toBe(true);

    proxy.silence();
    const startedAt = performance.now();
    const silent = await fanOut().search({ query: 'lighthouse keepers', maxResults: 5, deadlineMs: DEADLINE_MS });
    const elapsedMs = performance.now() - startedAt;
    expect(elapsedMs).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(elapsedMs).toBeLessThan(DEADLINE_MS + 1_000);
    expect(silent.candidates.map((candidate) => candidate.url)).toEqual(['https://lighthouse.example/keepers']);
    const local = silent.providers.find((provider) => provider.name !== 'searxng');
    expect(local).toEqual({ name: local?.name, results: 0, error: `${local?.name} gave no answer within ${DEADLINE_MS} ms` });
  });
});
