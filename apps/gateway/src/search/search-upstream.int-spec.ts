import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { callGateway, createTestAccount, createTestKey, eventually } from '@sift/testing';
import { FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';
import { RequestLogWriter } from '../request-log/request-log-writer.service';

interface SearchBody {
  results: Array<{ id: string; url: string; title: string; content: string; score: number; published_date?: string; raw_content?: string }>;
  answer?: string;
  request_id: string;
}

interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => resolve(text));
  });
}

// SearXNG and the answer model are the outside world here: loopback servers speaking SearXNG's format=json and
// OpenAI's chat.completions wire formats. The pages SearXNG points at are fetched by a real extractor worker.
describe('POST /search with SearXNG, page fetching and an OpenAI-compatible model', () => {
  let gateway: TestGateway;
  let worker: WorkerProcess;
  let site: FixtureServer;
  let searxng: FixtureServer;
  let model: FixtureServer;
  let apiKey: string;
  const chatRequests: ChatRequest[] = [];
  const marker = `plimsoq${randomUUID().replace(/-/g, '').slice(0, 8)}`;
  const page = (title: string, body: string) =>
    `<!doctype html><html lang="en"><head><title>${title}</title></head><body><nav>Menu</nav><article><h1>${title}</h1>` +
    `<p>${body}</p><p>${'Background paragraph that only pads the article to a realistic length for extraction. '.repeat(6)}</p>` +
    `<img src="/figure.png" alt="A diagram of the ${marker} engine"></article><footer>Footer</footer></body></html>`;
  // What SearXNG knows per query: its snippets deliberately lack the words only the fetched pages contain.
  const upstream: Record<string, Array<Record<string, unknown>>> = {};

  beforeAll(async () => {
    site = await startFixtureServer({
      '/engine': (_request, response) =>
        response.writeHead(200, { 'content-type': 'text/html' }).end(page(`${marker} engine`, `The ${marker} engine runs on compressed hydrogen and reaches 9000 rpm at full load.`)),
      '/history': (_request, response) =>
        response.writeHead(200, { 'content-type': 'text/html' }).end(page(`${marker} history`, `The ${marker} engine was designed in a small workshop by two brothers.`)),
      '/uncached': (_request, response) =>
        response.writeHead(200, { 'content-type': 'text/html' }).end(page(`${marker} uncached`, `Only a fetch would read this ${marker} sentence about turbines.`)),
      '/gone': (_request, response) => response.writeHead(404).end('gone'),
      '/private': (_request, response) =>
        response.writeHead(200, { 'content-type': 'text/html' }).end(page(`${marker} private`, `The ${marker} ledger lists every shipment of copper bolts.`)),
    });
    searxng = await startFixtureServer({
      '/search': (request, response) => {
        const query = new URL(request.url ?? '/', 'http://searxng').searchParams.get('q') ?? '';
        const results = upstream[query] ?? [];
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({ query, number_of_results: results.length, results, answers: [], corrections: [], infoboxes: [], suggestions: [], unresponsive_engines: [] }),
        );
      },
    });
    model = await startFixtureServer({
      '/v1/chat/completions': (request, response) => {
        void readBody(request).then((text) => {
          const chat = JSON.parse(text) as ChatRequest;
          chatRequests.push(chat);
          response.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              id: 'chatcmpl-1',
              object: 'chat.completion',
              created: Math.floor(Date.now() / 1000),
              model: chat.model,
              choices: [{ index: 0, message: { role: 'assistant', content: `It runs on compressed hydrogen [1].` }, finish_reason: 'stop' }],
              usage: { prompt_tokens: 100, completion_tokens: 8, total_tokens: 108 },
            }),
          );
        });
      },
    });
    worker = await startWorkerProcess('extractor-worker');
    gateway = await startTestGateway({
      QUEUE_PREFIX: worker.queuePrefix,
      FETCH_ALLOW_CIDRS: '127.0.0.1/32',
      SEARXNG_URL: searxng.url,
      // This suite is about what fetched pages give, not about latency (search-budget.int-spec.ts is).
      SEARCH_BUDGET_BASIC_MS: '20000',
      SEARCH_BUDGET_ADVANCED_MS: '20000',
      LLM_BASE_URL: `${model.url}/v1`,
      LLM_MODEL: 'loopback-model',
    });
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    apiKey = (await createTestKey(gateway.prisma, account.id)).apiKey;
  }, 120_000);

  afterAll(async () => {
    await gateway?.prisma.document.deleteMany({ where: { url: { startsWith: site.url } } });
    await Promise.all([gateway?.close(), worker?.stop(), site?.close(), searxng?.close(), model?.close()]);
  });

  const searxngResult = (path: string, title: string, content: string, score: number, extra: Record<string, unknown> = {}) => ({
    url: `${site.url}${path}`,
    title,
    content,
    engine: 'duckduckgo',
    engines: ['duckduckgo'],
    positions: [1],
    score,
    category: 'general',
    parsed_url: ['http', new URL(site.url).host, path, '', '', ''],
    template: 'default.html',
    publishedDate: null,
    thumbnail: '',
    ...extra,
  });

  it('fetches the pages of SearXNG results through the worker, chunks them, de-duplicates, and the model answers', async () => {
    const query = `${marker} engine fuel`;
    upstream[query] = [
      searxngResult('/engine', `${marker} engine`, 'A snippet without the fuel.', 2),
      // The same page under a tracking parameter and a fragment: one result after canonical de-duplication.
      searxngResult('/engine?utm_source=feed#top', `${marker} engine (copy)`, 'Same page.', 1.5),
      searxngResult('/history', `${marker} history`, 'History snippet.', 1),
      searxngResult('/gone', `${marker} gone`, `Snippet of a page that is gone, about the ${marker} engine.`, 0.5),
    ];
    const { status, body } = await callGateway<SearchBody>(gateway.baseUrl, 'POST', '/search', {
      apiKey,
      body: { query, include_answer: true, include_raw_content: 'markdown' },
    });
    expect(status).toBe(200);
    expect(body.results.map((result) => result.url)).toEqual([`${site.url}/engine`, `${site.url}/history`, `${site.url}/gone`]);
    const [engine, , gone] = body.results;
    expect(engine.content).toContain('compressed hydrogen');
    expect(engine.raw_content).toContain(`![A diagram of the ${marker} engine](${site.url}/figure.png)`);
    // A page that could not be fetched keeps its upstream snippet.
    expect(gone.content).toBe(`Snippet of a page that is gone, about the ${marker} engine.`);
    expect(body.answer).toBe('It runs on compressed hydrogen [1].');
    const chat = chatRequests[chatRequests.length - 1];
    expect(chat.model).toBe('loopback-model');
    expect(chat.messages.map((message) => message.content).join('\n')).toContain('compressed hydrogen');
    let logged: { detail: unknown } | null = null;
    for (let attempt = 0; attempt < 50 && !logged; attempt += 1) {
      // Request logs are written in batches: store the pending ones instead of waiting for the timer.
      await gateway.app.get(RequestLogWriter).flush();
      logged = await gateway.prisma.requestLog.findUnique({ where: { requestId: body.request_id } });
      if (!logged) await new Promise((done) => setImmediate(done));
    }
    expect(logged?.detail).toEqual(
      expect.objectContaining({ answer_mode: 'llm', providers: expect.arrayContaining([{ name: 'searxng', results: 4 }]), fetched: 2, fetch_failures: 1 }),
    );
    // The fetched pages are now stored: the local index finds them without SearXNG.
    const stored = await gateway.prisma.document.findFirst({ where: { url: `${site.url}/engine` } });
    expect(stored?.text).toContain('compressed hydrogen');
  });

  it('fetches pages for a zero-data-retention account without storing them, answering from the fetched page', async () => {
    const account = await createTestAccount(gateway.prisma, { plan: 'growth', zeroDataRetention: true });
    const zdrKey = (await createTestKey(gateway.prisma, account.id)).apiKey;
    const query = `${marker} copper bolts`;
    upstream[query] = [searxngResult('/private?run=zdr', `${marker} private`, 'A snippet without the shipments.', 1)];
    const { status, body } = await callGateway<SearchBody>(gateway.baseUrl, 'POST', '/search', {
      apiKey: zdrKey,
      body: { query, include_raw_content: 'text' },
    });
    expect(status).toBe(200);
    // The content comes from the page the worker fetched (the snippet lacks it); nothing was stored to re-read.
    // (Pages stored by the other tests come back from the local index too.)
    const fetched = body.results.find((result) => result.url === `${site.url}/private?run=zdr`);
    expect(fetched).toEqual(expect.objectContaining({ title: `${marker} private` }));
    expect(fetched?.content).toContain('copper bolts');
    expect(fetched?.raw_content).toContain('every shipment of copper bolts');
    expect(site.requests.filter((line) => line.includes('/private?run=zdr'))).toHaveLength(1);
    const stored = () => gateway.prisma.document.count({ where: { url: { startsWith: `${site.url}/private` } } });
    // A search's fetched pages are stored just after it answers: give a store the time it would take.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await stored()).toBe(0);

    // The same search with a key that keeps data stores the page (just after answering).
    await callGateway<SearchBody>(gateway.baseUrl, 'POST', '/search', { apiKey, body: { query } });
    expect(await eventually('the page stored', async () => ((await stored()) === 1 ? true : undefined))).toBe(true);
  });

  it('fast and ultra-fast never fetch: a page not in the store keeps its snippet', async () => {
    const query = `${marker} turbines`;
    upstream[query] = [searxngResult('/uncached', `${marker} uncached`, `Upstream snippet about ${marker} turbines.`, 1)];
    for (const depth of ['fast', 'ultra-fast']) {
      const { body } = await callGateway<SearchBody>(gateway.baseUrl, 'POST', '/search', { apiKey, body: { query, search_depth: depth } });
      // Pages stored by the first test also come back, from the local index; the unfetched one keeps its snippet.
      const uncached = body.results.find((result) => result.url === `${site.url}/uncached`);
      expect(uncached?.content).toBe(`Upstream snippet about ${marker} turbines.`);
    }
    expect(site.requests.filter((line) => line.includes('/uncached'))).toEqual([]);
  });

  it('news results from SearXNG carry their published date', async () => {
    const query = `${marker} engine news`;
    const published = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    upstream[query] = [searxngResult('/history', `${marker} history`, 'News snippet.', 1, { publishedDate: published, category: 'news' })];
    const { body } = await callGateway<SearchBody>(gateway.baseUrl, 'POST', '/search', { apiKey, body: { query, topic: 'news', search_depth: 'ultra-fast' } });
    expect(body.results).toEqual([expect.objectContaining({ url: `${site.url}/history`, published_date: published })]);
  });
});
