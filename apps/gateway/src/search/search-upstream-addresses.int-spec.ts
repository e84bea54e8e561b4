import { randomUUID } from 'node:crypto';
import { callGateway, createTestAccount, createTestKey, startLoopbackSearxng } from '@sift/testing';
import type { FixtureServer } from '@sift/safe-fetch';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';

interface SearchBody {
  results: Array<{ url: string; title: string; content: string; raw_content?: string }>;
}

// SearXNG is the outside world here, and what it answers is not trusted: engines index intranets, and a hostile page
// can get an internal address ranked. The egress policy is closed (FETCH_ALLOW_CIDRS empty, as in production); the
// loopback SearXNG itself is reached because it is the operator's configured endpoint, which allows its own address
// and nothing else.
describe('POST /search with SearXNG answering internal addresses', () => {
  let gateway: TestGateway;
  let searxng: FixtureServer;
  let apiKey: string;
  const marker = `vantrel${randomUUID().replace(/-/g, '').slice(0, 8)}`;
  const publicUrl = `https://public-${marker}.example/guide`;
  const internalUrls = [
    'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    'http://user:pass@127.0.0.1/',
    'http://[::1]/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://localhost/admin',
    'http://console.localhost/',
    'http://10.0.0.7/wiki',
    'http://[fd00::7]/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'file:///etc/passwd',
    'gopher://127.0.0.1:6379/_INFO',
  ];

  beforeAll(async () => {
    searxng = await startLoopbackSearxng((query) =>
      [...internalUrls, publicUrl].map((url, position) => ({ url, title: `${query} result ${position}`, content: `Snippet ${position} about ${query}.` })),
    );
    gateway = await startTestGateway({ SEARXNG_URL: searxng.url, FETCH_ALLOW_CIDRS: '' });
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    apiKey = (await createTestKey(gateway.prisma, account.id)).apiKey;
  }, 60_000);

  afterAll(async () => {
    await Promise.all([gateway?.close(), searxng?.close()]);
  });

  it.each(['ultra-fast', 'fast'])('returns only the public result at %s depth, none of the internal ones nor their snippets', async (depth) => {
    const { status, body } = await callGateway<SearchBody>(gateway.baseUrl, 'POST', '/search', {
      apiKey,
      body: { query: `${marker} ${depth}`, search_depth: depth, max_results: 20, include_raw_content: 'text' },
    });
    expect(status).toBe(200);
    expect(body.results.map((result) => result.url)).toEqual([publicUrl]);
    expect(body.results[0].raw_content).toBe(`Snippet ${internalUrls.length} about ${marker} ${depth}.`);
    expect(searxng.requests.some((line) => line.includes(marker))).toBe(true);
  });
});
