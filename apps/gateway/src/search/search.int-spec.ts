import { randomUUID } from 'node:crypto';
import { callGateway, createTestAccount, createTestKey, ownResults } from '@sift/testing';
import { webPageOf } from '@sift/content-extraction';
import { PageRepository } from '@sift/pages';
import { startTestGateway, TestGateway, uniqueClientIp } from '../testing/gateway-harness';
import { RequestLogWriter } from '../request-log/request-log-writer.service';

interface SearchResult {
  id: string;
  title: string;
  url: string;
  content: string;
  score: number;
  raw_content?: string;
  published_date?: string;
  favicon?: string;
  images?: Array<string | { url: string; description: string }>;
}

interface SearchBody {
  query: string;
  results: SearchResult[];
  images: Array<string | { url: string; description: string }>;
  answer?: string;
  request_id: string;
  response_time: number;
  usage?: { credits: number };
  auto_parameters?: Record<string, unknown>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

// POST /search over the local index only (no SearXNG, no model): a corpus made for this file, with dated news
// pages, several domains, two languages, an unsafe page and two pages that differ only in their country.
describe('POST /search (local index)', () => {
  let gateway: TestGateway;
  let apiKey: string;
  const marker = `quorvel${randomUUID().replace(/-/g, '').slice(0, 8)}`;
  const suffix = randomUUID().slice(0, 8);
  const host = (name: string) => `${name}-${suffix}.example`;
  const url = {
    guide: `https://${host('guide')}/volcano`,
    fresh: `https://${host('news')}/today`,
    old: `https://${host('news')}/archive`,
    german: `https://${host('vulkan')}/seite`,
    unsafe: `https://${host('adult')}/page`,
    italian: `https://shop-${suffix}.it/volcano`,
    plain: `https://${host('shop')}/volcano`,
    phrase: `https://${host('science')}/chamber`,
  };
  const paragraph = (topic: string) =>
    `The ${marker} volcano ${topic}. Scientists measure the magma and the ash of the ${marker} volcano every day, ` +
    `and the observatory publishes what the instruments show about the eruption and its effects on the valley, ` +
    `the farms below it and the towns along the river that carries its ash to the sea.`;

  beforeAll(async () => {
    gateway = await startTestGateway();
    const pages = new PageRepository(gateway.prisma);
    const documents = [
      {
        url: url.guide,
        title: `${marker} volcano eruption guide`,
        text: [paragraph('erupts when magma rises'), paragraph('has three craters'), paragraph('was first climbed long ago'), paragraph('shapes the weather')].join('\n\n'),
        markdown: `# ${marker} volcano eruption guide\n\n${paragraph('erupts when magma rises')}`,
        language: 'en',
        publishedDate: new Date(Date.now() - 3 * DAY_MS),
        images: [{ url: `https://${host('guide')}/crater.jpg`, alt: 'The main crater at dawn' }],
      },
      { url: url.fresh, title: `${marker} volcano erupts again`, text: paragraph('erupted this morning, eruption ash reported'), language: 'en', isNews: true, publishedDate: new Date(Date.now() - DAY_MS) },
      { url: url.old, title: `${marker} volcano eruption of 2019`, text: paragraph('erupted in 2019, a famous eruption'), language: 'en', isNews: true, publishedDate: new Date('2019-05-01T00:00:00Z') },
      { url: url.german, title: `${marker} Vulkan Ausbruch`, text: `Der ${marker} volcano Vulkan brach aus und die Lava floss in das Tal, sagen die Forscher mit der eruption.`, language: 'de' },
      { url: url.unsafe, title: `${marker} volcano eruption uncensored`, text: paragraph('in explicit pictures'), language: 'en', isUnsafe: true },
      { url: url.italian, title: `${marker} volcano souvenirs`, text: `Souvenirs of the ${marker} volcano eruption for sale.`, language: 'en' },
      { url: url.plain, title: `${marker} volcano souvenirs`, text: `Souvenirs of the ${marker} volcano eruption for sale.`, language: 'en' },
      { url: url.phrase, title: `${marker} magma chamber`, text: `When the ${marker} magma chamber collapse happened, the volcano eruption ended.`, language: 'en' },
    ];
    for (const { url: pageUrl, publishedDate, ...fields } of documents) {
      await pages.save('operator', webPageOf({ ...fields, finalUrl: pageUrl, publishedDate: publishedDate?.toISOString() }), 'import');
    }
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    apiKey = (await createTestKey(gateway.prisma, account.id)).apiKey;
  }, 60_000);

  afterAll(async () => {
    await gateway?.prisma.document.deleteMany({ where: { url: { in: Object.values(url) } } });
    await gateway?.close();
  });

  const search = (body: Record<string, unknown>, key: string = apiKey) =>
    callGateway<SearchBody>(gateway.baseUrl, 'POST', '/search', { apiKey: key, body: { query: `${marker} volcano eruption`, ...body } });
  const urlsOf = (body: SearchBody) => ownResults(body.results, `-${suffix}.`).map((result) => result.url);

  it('returns scored, sorted results with ids, chunked content, an empty images array and no answer', async () => {
    const { status, body, headers } = await search({ chunks_per_source: 2 });
    expect(status).toBe(200);
    // Per-request bodies: no ETag (it would only cost a hash of every response).
    expect(headers.get('etag')).toBeNull();
    expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.response_time).toBeGreaterThan(0);
    expect(body.images).toEqual([]);
    expect(body).not.toHaveProperty('answer');
    expect(body).not.toHaveProperty('usage');
    expect(body.results.length).toBeGreaterThanOrEqual(6);
    const scores = body.results.map((result) => result.score);
    expect([...scores].sort((left, right) => right - left)).toEqual(scores);
    for (const result of body.results) {
      expect(result.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(result.score).toBeGreaterThan(0);
      expect(result.score).toBeLessThanOrEqual(1);
      expect(result).not.toHaveProperty('raw_content');
      expect(result).not.toHaveProperty('published_date');
      for (const chunk of result.content.split(' [...] ')) expect(chunk.length).toBeLessThanOrEqual(500);
    }
    expect(new Set(body.results.map((result) => result.id)).size).toBe(body.results.length);
    const guide = body.results.find((result) => result.url === url.guide);
    expect(guide?.content.split(' [...] ')).toHaveLength(2);
    const oneChunk = await search({ chunks_per_source: 1 });
    expect(oneChunk.body.results.find((result) => result.url === url.guide)?.content).not.toContain(' [...] ');
  });

  it('topic news keeps news pages and gives their published_date; time_range and dates narrow by publish date', async () => {
    const news = await search({ topic: 'news' });
    expect(new Set(urlsOf(news.body))).toEqual(new Set([url.fresh, url.old]));
    for (const result of news.body.results) expect(Date.parse(result.published_date ?? '')).not.toBeNaN();
    expect(urlsOf((await search({ topic: 'news', time_range: 'w' })).body)).toEqual([url.fresh]);
    expect(urlsOf((await search({ topic: 'news', end_date: '2020-01-01' })).body)).toEqual([url.old]);
    const since = await search({ start_date: new Date(Date.now() - 2 * DAY_MS).toISOString().slice(0, 10) });
    expect(urlsOf(since.body)).toContain(url.fresh);
    expect(urlsOf(since.body)).not.toContain(url.guide);
  });

  it('max_results bounds the count, 0 to 20; other ranges and the cross-field rules answer 400 naming the field', async () => {
    expect((await search({ max_results: 2 })).body.results).toHaveLength(2);
    expect((await search({ max_results: 0 })).body.results).toEqual([]);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ max_results: 21 }, /max_results/],
      [{ chunks_per_source: 0 }, /chunks_per_source/],
      [{ include_domains_mode: 'filter' }, /include_domains_mode requires include_domains/],
      [{ filter_by_language: true }, /filter_by_language requires language/],
      [{ safe_search: true, search_depth: 'fast' }, /safe_search.*fast/],
      [{ safe_search: true, search_depth: 'ultra-fast' }, /safe_search.*ultra-fast/],
      [{ start_date: '2025-02-01', end_date: '2025-01-01' }, /start_date/],
      [{ language: 'klingonese' }, /language/],
      [{ country: 'atlantis' }, /country must be an English country name.*"atlantis"/],
      [{ include_domains: Array.from({ length: 301 }, (_, index) => `d${index}.example`) }, /include_domains/],
      [{ exclude_domains: Array.from({ length: 151 }, (_, index) => `d${index}.example`) }, /exclude_domains/],
    ];
    for (const [body, message] of cases) {
      const answer = await search(body);
      expect({ body, status: answer.status }).toEqual({ body, status: 400 });
      expect(answer.body).toEqual({ detail: { error: expect.stringMatching(message) } });
    }
  });

  it('include_domains filters or boosts, exclude_domains drops', async () => {
    expect(new Set(urlsOf((await search({ include_domains: [host('news')] })).body))).toEqual(new Set([url.fresh, url.old]));
    const boosted = await search({ include_domains: [host('science')], include_domains_mode: 'boost' });
    expect(boosted.body.results[0].url).toBe(url.phrase);
    expect(boosted.body.results.length).toBeGreaterThan(3);
    const excluded = urlsOf((await search({ exclude_domains: [`https://${host('news')}/`] })).body);
    expect(excluded).not.toContain(url.fresh);
    expect(excluded).toContain(url.guide);
  });

  it('language boosts or, with filter_by_language, filters; country boosts its pages for the general topic only', async () => {
    expect(urlsOf((await search({ language: 'german', filter_by_language: true })).body)).toEqual([url.german]);
    expect(urlsOf((await search({ language: 'en', filter_by_language: true })).body)).not.toContain(url.german);
    const souvenirs = { query: `${marker} souvenirs`, include_domains: [host('shop'), `shop-${suffix}.it`] };
    const plain = (await search(souvenirs)).body.results;
    expect(plain).toHaveLength(2);
    expect(plain[0].score).toBe(plain[1].score);
    const italy = (await search({ ...souvenirs, country: 'italy' })).body.results;
    expect(italy[0].url).toBe(url.italian);
    expect(italy[0].score).toBeGreaterThan(italy[1].score);
  });

  it('exact_match keeps only pages with the quoted phrase; safe_search drops the unsafe page', async () => {
    const exact = await search({ query: `"${marker} magma chamber collapse" volcano`, exact_match: true });
    expect(urlsOf(exact.body)).toEqual([url.phrase]);
    expect(urlsOf((await search({})).body)).toContain(url.unsafe);
    expect(urlsOf((await search({ safe_search: true })).body)).not.toContain(url.unsafe);
  });

  it('adds raw content, favicons, images with descriptions, and usage at the documented credits', async () => {
    const markdown = await search({ include_raw_content: true, include_favicon: true, include_usage: true, include_domains: [host('guide')] });
    const [guide] = markdown.body.results;
    expect(guide.raw_content).toMatch(/^# /);
    expect(guide.favicon).toBe(`https://${host('guide')}/favicon.ico`);
    expect(markdown.body.usage).toEqual({ credits: 1 });
    const text = await search({ include_raw_content: 'text', include_domains: [host('guide')] });
    expect(text.body.results[0].raw_content).not.toMatch(/^# /);
    expect(text.body.results[0].raw_content).toContain('has three craters');

    const images = await search({ include_images: true, include_domains: [host('guide')] });
    expect(images.body.images).toEqual([`https://${host('guide')}/crater.jpg`]);
    expect(images.body.results[0].images).toEqual([`https://${host('guide')}/crater.jpg`]);
    const described = await search({ include_images: true, include_image_descriptions: true, include_domains: [host('guide')] });
    expect(described.body.images).toEqual([{ url: `https://${host('guide')}/crater.jpg`, description: 'The main crater at dawn' }]);

    const advanced = await search({ search_depth: 'advanced', include_usage: true });
    expect(advanced.body.usage).toEqual({ credits: 2 });
    const usage = await callGateway<{ key: { search_usage: number } }>(gateway.baseUrl, 'GET', '/usage', { apiKey });
    expect(usage.body.key.search_usage).toBeGreaterThanOrEqual(3);
  });

  it('without a model answers extractively with citations, and the request log records the answer mode', async () => {
    const { body } = await search({ query: `${marker} magma chamber collapse`, include_answer: true });
    expect(body.answer).toMatch(/\[\d\]/);
    expect(body.answer).toContain(marker);
    let logged: { detail: unknown } | null = null;
    for (let attempt = 0; attempt < 50 && !logged; attempt += 1) {
      // Request logs are written in batches: store the pending ones instead of waiting for the timer.
      await gateway.app.get(RequestLogWriter).flush();
      logged = await gateway.prisma.requestLog.findUnique({ where: { requestId: body.request_id } });
      if (!logged) await new Promise((done) => setImmediate(done));
    }
    expect(logged?.detail).toEqual(expect.objectContaining({ answer_mode: 'extractive', providers: [{ name: 'local', results: expect.any(Number) }] }));
  });

  it('ultra-fast gives one best chunk per source; fast uses the stored content with chunks_per_source', async () => {
    const ultra = await search({ search_depth: 'ultra-fast', chunks_per_source: 3, include_domains: [host('guide')] });
    expect(ultra.body.results[0].content).not.toContain(' [...] ');
    const fast = await search({ search_depth: 'fast', chunks_per_source: 3, include_domains: [host('guide')] });
    expect(fast.body.results[0].content.split(' [...] ')).toHaveLength(3);
  });

  it('auto_parameters infers topic, time range and depth, reports them, and never overrides explicit values', async () => {
    const auto = await search({ query: `latest ${marker} volcano eruption news today`, auto_parameters: true, include_usage: true });
    expect(auto.body.auto_parameters).toEqual({ topic: 'news', time_range: 'day', search_depth: 'basic' });
    expect(auto.body).not.toHaveProperty('answer');
    expect(auto.body.usage).toEqual({ credits: 1 });
    const pinned = await search({ query: `latest ${marker} volcano eruption news`, auto_parameters: true, topic: 'general' });
    expect(pinned.body.auto_parameters).toEqual(expect.objectContaining({ topic: 'general' }));
    expect(urlsOf(pinned.body)).toContain(url.guide);
    const deep = await search({ query: `compare the ${marker} volcano eruption`, auto_parameters: true, include_usage: true });
    expect(deep.body.auto_parameters).toEqual(expect.objectContaining({ search_depth: 'advanced' }));
    expect(deep.body.usage).toEqual({ credits: 2 });
    const basic = await search({ query: `compare the ${marker} volcano eruption`, auto_parameters: true, search_depth: 'basic', include_usage: true });
    expect(basic.body.usage).toEqual({ credits: 1 });
  });

  it('works keyless with the keyless header and charges nobody', async () => {
    const keyless = await callGateway<SearchBody>(gateway.baseUrl, 'POST', '/search', {
      headers: { 'X-Service-Access-Mode': 'keyless', 'X-Forwarded-For': uniqueClientIp() },
      body: { query: `${marker} volcano eruption`, include_usage: true },
    });
    expect(keyless.status).toBe(200);
    expect(keyless.body.results.length).toBeGreaterThan(0);
    expect(keyless.body.usage).toEqual({ credits: 0 });
    const refused = await callGateway(gateway.baseUrl, 'POST', '/search', { body: { query: 'anything' } });
    expect(refused.status).toBe(401);
  });
});
