import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { lookup } from 'node:dns/promises';
import type { AddressInfo } from 'node:net';
import { SearxngProvider } from './searxng.provider';

// A SearXNG instance's answer to /search?format=json, as the real API sends it.
const searxngAnswer = {
  query: 'volcano',
  number_of_results: 0,
  results: [
    {
      url: 'https://en.wikipedia.org/wiki/Volcano',
      title: 'Volcano - Wikipedia',
      content: 'A volcano is a rupture in the crust of a planetary-mass object.',
      engine: 'wikipedia',
      parsed_url: ['https', 'en.wikipedia.org', '/wiki/Volcano', '', '', ''],
      template: 'default.html',
      engines: ['wikipedia', 'duckduckgo'],
      positions: [1, 2],
      publishedDate: null,
      score: 4.5,
      category: 'general',
    },
    {
      url: 'https://www.example-news.com/2026/volcano-erupts',
      title: 'Volcano erupts',
      content: 'The volcano erupted on Sunday.',
      engine: 'bing news',
      parsed_url: ['https', 'www.example-news.com', '/2026/volcano-erupts', '', '', ''],
      template: 'default.html',
      engines: ['bing news'],
      positions: [3],
      publishedDate: '2026-11-20T08:00:00',
      score: 1.5,
      category: 'general',
      img_src: 'https://www.example-news.com/ash.jpg',
    },
    {
      url: 'https://blocked.example.org/volcano',
      title: 'Blocked',
      content: 'Should be excluded.',
      engine: 'duckduckgo',
      publishedDate: null,
      score: 0.9,
      category: 'general',
    },
  ],
  answers: [],
  corrections: [],
  infoboxes: [],
  suggestions: ['volcano eruption'],
  unresponsive_engines: [],
};

describe('SearxngProvider (loopback SearXNG speaking its JSON API)', () => {
  let server: Server;
  let baseUrl: string;
  let lastRequest: URL | undefined;
  let status = 200;
  // Results a test adds after the answer's own.
  let addedResults: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      lastRequest = new URL(request.url ?? '/', 'http://searxng');
      if (lastRequest.pathname !== '/searx/search') {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(status === 200 ? JSON.stringify({ ...searxngAnswer, results: [...searxngAnswer.results, ...addedResults] }) : '{"error":"rate limited"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/searx`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    status = 200;
    lastRequest = undefined;
    addedResults = [];
  });

  it('maps topic, time range, language and safe search onto the JSON API and reaches a loopback instance', async () => {
    const provider = new SearxngProvider({ baseUrl, policy: { allowCidrs: [] } });
    await provider.search({ query: 'volcano', topic: 'news', timeRange: 'w', language: 'German', safeSearch: true });
    expect(lastRequest?.searchParams.get('q')).toBe('volcano');
    expect(lastRequest?.searchParams.get('format')).toBe('json');
    expect(lastRequest?.searchParams.get('categories')).toBe('news');
    expect(lastRequest?.searchParams.get('time_range')).toBe('week');
    expect(lastRequest?.searchParams.get('language')).toBe('de');
    expect(lastRequest?.searchParams.get('safesearch')).toBe('2');
  });

  it('returns snippet candidates with scores in [0, 1], dates and images', async () => {
    const provider = new SearxngProvider({ baseUrl, policy: { allowCidrs: [] } });
    const results = await provider.search({ query: 'volcano' });
    expect(lastRequest?.searchParams.get('safesearch')).toBe('0');
    expect(lastRequest?.searchParams.get('categories')).toBe('general');
    expect(results).toHaveLength(3);
    expect(results[0]).toMatchObject({
      url: 'https://en.wikipedia.org/wiki/Volcano',
      title: 'Volcano - Wikipedia',
      content: 'A volcano is a rupture in the crust of a planetary-mass object.',
      contentIsSnippet: true,
      score: 1,
      provider: 'searxng',
      images: [],
    });
    expect(results[1].score).toBeCloseTo(1.5 / 4.5);
    expect(results[1].publishedDate).toBe(new Date('2026-11-20T08:00:00').toISOString());
    expect(results[1].images).toEqual([{ url: 'https://www.example-news.com/ash.jpg' }]);
  });

  it('filters domains and explicit dates itself, since SearXNG cannot', async () => {
    const provider = new SearxngProvider({ baseUrl, policy: { allowCidrs: [] } });
    const withoutBlocked = await provider.search({ query: 'volcano', excludeDomains: ['example.org'] });
    expect(withoutBlocked.map((result) => result.url)).not.toContain('https://blocked.example.org/volcano');
    const onlyNews = await provider.search({ query: 'volcano', includeDomains: ['example-news.com'] });
    expect(lastRequest?.searchParams.get('q')).toBe('volcano site:example-news.com');
    expect(onlyNews.map((result) => result.url)).toEqual(['https://www.example-news.com/2026/volcano-erupts']);
    const dated = await provider.search({ query: 'volcano', startDate: '2026-11-01' });
    expect(dated.map((result) => result.url)).toEqual(['https://www.example-news.com/2026/volcano-erupts']);
  });

  it("drops results and images whose address the egress policy refuses, the SearXNG host's own included, and keeps what it allows", async () => {
    const result = (url: string, extra: Record<string, unknown> = {}) => ({ url, title: url, content: `About ${url}`, engine: 'intranet', score: 1, ...extra });
    const loopbackPage = `${baseUrl.replace('/searx', '')}/page`;
    addedResults = [
      result('http://169.254.169.254/latest/meta-data/'),
      result('http://user:pass@127.0.0.1/'),
      result('http://2130706433/'),
      result('http://[::1]/'),
      result('http://localhost/'),
      result('file:///etc/passwd'),
      result(loopbackPage),
      result('https://volcanoes.example/ash', { img_src: 'http://10.0.0.1/ash.jpg' }),
    ];
    const closed = await new SearxngProvider({ baseUrl, policy: { allowCidrs: [] } }).search({ query: 'volcano', maxResults: 20 });
    expect(closed.map((candidate) => candidate.url)).toEqual([...searxngAnswer.results.map((answer) => answer.url), 'https://volcanoes.example/ash']);
    expect(closed.at(-1)?.images).toEqual([]);
    // An allowance of the policy (tests' loopback fixtures) applies to what is returned as to what is fetched.
    const loopback = await new SearxngProvider({ baseUrl, policy: { allowCidrs: ['127.0.0.0/8'] } }).search({ query: 'volcano', maxResults: 20 });
    expect(loopback.map((candidate) => candidate.url)).toEqual([...searxngAnswer.results.map((answer) => answer.url), 'http://2130706433/', 'http://localhost/', loopbackPage, 'https://volcanoes.example/ash']);
  });

  it('fails loudly when SearXNG answers with an error', async () => {
    status = 429;
    const provider = new SearxngProvider({ baseUrl, policy: { allowCidrs: [] } });
    await expect(provider.search({ query: 'volcano' })).rejects.toThrow(/429/);
  });

  it('keeps searching after the SearXNG host failed to resolve once, without a restart', async () => {
    // DNS is outside the project: the stand-in answers like a resolver before the searxng container is up, then
    // like the real one once it is.
    let lookups = 0;
    const resolve = async (host: string) => {
      lookups += 1;
      if (lookups === 1) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return (await lookup(host, { all: true, family: 4 })).map((entry) => entry.address);
    };
    const byName = baseUrl.replace('127.0.0.1', 'localhost');
    const provider = new SearxngProvider({ baseUrl: byName, policy: { allowCidrs: [] }, endpoint: { resolve } });
    await expect(provider.search({ query: 'volcano' })).rejects.toThrow('ENOTFOUND');
    await expect(provider.search({ query: 'volcano' })).resolves.toHaveLength(3);
    expect(lookups).toBe(2);
  });
});
