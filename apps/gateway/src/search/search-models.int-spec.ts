import { randomBytes } from 'node:crypto';
import { webPageOf } from '@sift/content-extraction';
import { PageRepository } from '@sift/pages';
import { createPrismaClient, type PrismaClient } from '@sift/persistence';
import { FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import {
  callGateway,
  conceptEmbedding,
  createTestAccount,
  createTestKey,
  eventually,
  ownResults,
  startLoopbackModelServer,
  startLoopbackSearxng,
  type LoopbackModelServer,
  type ModelServerFault,
  type SearxngResult,
} from '@sift/testing';
import { RequestLogWriter } from '../request-log/request-log-writer.service';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';

interface SearchResult {
  url: string;
  title: string;
  content: string;
  score: number;
}

interface SearchBody {
  results: SearchResult[];
  request_id: string;
  response_time: number;
}

/** Made-up words, unique to this run: no other page of the database holds them, and each is one token everywhere. */
const marker = Array.from(randomBytes(8), (byte) => String.fromCharCode(97 + (byte % 26))).join('');
const word = (stem: string) => `${stem}${marker}`;
const words = {
  shelve: word('shelve'),
  unfinished: word('unfinished'),
  stash: word('stash'),
  aside: word('aside'),
  edits: word('edits'),
  graft: word('graft'),
  elsewhere: word('elsewhere'),
  cherrypick: word('cherrypick'),
  onto: word('onto'),
  ledger: word('ledger'),
  bolts: word('bolts'),
  gem: word('gem'),
};

/**
 * The test model's meaning: the words of one concept are near whatever their letters, so a query and a page that
 * share no word are near when their words name the same concept.
 */
const embed = conceptEmbedding({
  shelving: [words.shelve, words.unfinished, words.stash, words.aside],
  transplant: [words.graft, words.elsewhere, words.cherrypick, words.onto],
});
/** The test reranker: a passage holding a word of the query scores by how often it says the gem word. */
const score = (query: string, passage: string) => (query.split(' ').some((term) => passage.includes(term)) ? passage.split(words.gem).length - 1 : 0);

const EMBEDDINGS_TIMEOUT_MS = 500;
const RERANK_TIMEOUT_MS = 500;

/** One paragraph of the fetched guide: about 420 characters, so each is a chunk of its own. */
const filler = (topic: string) =>
  `This part of the guide covers ${topic} in some detail. `.repeat(3) +
  'It gives the background a reader needs before the next steps, lists the commands involved, and explains what each of them prints. ' +
  'Nothing in it is surprising; it is here so the article reads as a real one would.';

// The operator's embedding and reranking models on loopback (two servers speaking the real wire formats, so a fault
// can be set on one), SearXNG as a loopback stand-in, a real extractor worker fetching the pages SearXNG points at,
// and a research worker embedding the stored chunks in its background. One gateway has the models configured, the other none: the
// second answers as Sift does without models, the reference every degraded answer is compared with.
describe('POST /search with an embedding model and a reranker', () => {
  let prisma: PrismaClient;
  let embeddings: LoopbackModelServer;
  let reranker: LoopbackModelServer;
  let site: FixtureServer;
  let searxng: FixtureServer;
  let worker: WorkerProcess;
  /** The research worker: it hosts the background loop that embeds the stored chunks. */
  let embedder: WorkerProcess;
  let withModels: TestGateway;
  let withoutModels: TestGateway;
  let apiKey: string;
  const suffix = `${marker}.test`;
  const localUrl = (name: string) => `https://${name}-${suffix}/`;
  const upstream: Record<string, SearxngResult[]> = {};

  const guide = (target: string) =>
    `<!doctype html><html lang="en"><head><title>Guide</title></head><body><article><h1>Guide</h1>` +
    [filler('installation'), filler('configuration'), filler('daily use'), target, filler('troubleshooting'), filler('upgrades')].map((paragraph) => `<p>${paragraph}</p>`).join('') +
    '</article></body></html>';
  // The paragraph a question about moving a change to another branch is answered by, in words it does not use.
  const transplantParagraph =
    `To ${words.cherrypick} a single change ${words.onto} the current branch, name the commit and the tool applies its diff here, ` +
    'recording a new commit with the same message. Conflicts stop it halfway, as a merge would, until they are resolved and it is told to go on. ' +
    'The original commit stays where it was; only a copy of its change arrives.';

  const search = async (gateway: TestGateway, body: Record<string, unknown>) => {
    const started = performance.now();
    const answer = await callGateway<SearchBody>(gateway.baseUrl, 'POST', '/search', { apiKey, body: { max_results: 10, ...body } });
    return { ...answer, ms: performance.now() - started };
  };
  const urls = (body: SearchBody) => body.results.map((result) => result.url);
  const own = (body: SearchBody) => ownResults(body.results, suffix).map((result) => result.url);
  const detailOf = async (gateway: TestGateway, requestId: string) => {
    const row = await eventually('the request log row', async () => {
      // Request logs are written in batches: store the pending ones instead of waiting for the timer.
      await gateway.app.get(RequestLogWriter).flush();
      return (await gateway.prisma.requestLog.findUnique({ where: { requestId } })) ?? undefined;
    });
    return row.detail as Record<string, unknown>;
  };
  const metric = async (series: string) => {
    const { body } = await callGateway<string>(withModels.baseUrl, 'GET', '/metrics');
    const line = body.split('\n').find((entry) => entry.startsWith(`${series} `));
    return line === undefined ? 0 : Number(line.slice(series.length + 1));
  };
  const fallbacks = (upstreamName: 'embeddings' | 'rerank', reason: string) => metric(`sift_model_fallbacks_total{upstream="${upstreamName}",reason="${reason}"}`);
  /** A SearXNG result pointing at a fresh copy of the guide (its own URL, so each search fetches it). */
  const guideResult = (run: string): SearxngResult => ({ url: `${site.url}/guide?run=${run}`, title: 'Guide', content: 'A guide to the version control tool.' });

  beforeAll(async () => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    embeddings = await startLoopbackModelServer({ embed, score });
    reranker = await startLoopbackModelServer({ embed, score });
    const pages = new PageRepository(prisma);
    const save = (name: string, title: string, text: string) =>
      pages.save('operator', webPageOf({ url: localUrl(name), finalUrl: localUrl(name), title, text, language: 'en' }), 'import');
    // Shares no word with the shelving questions below: only the model's meaning makes it their answer.
    await save('stash', 'Putting work away', `The ${words.stash} keeps your work ${words.aside} until you come back to it, and gives it back on request.`);
    // Holds one word of the shelving question: the words' only answer to it.
    await save('review', 'Review', `Every one of the ${words.edits} is reviewed by a second person before it is merged.`);
    // By words: first, second, third; by the reranker: the third first.
    await save('rerank-first', 'Ledger basics', `The ${words.ledger} lists ${words.bolts}. The ${words.ledger} counts ${words.bolts} per shipment and per ${words.ledger} page.`);
    await save('rerank-second', 'Ledger pages', `A ${words.ledger} page names the ${words.bolts} it lists.`);
    await save('rerank-third', 'Ledger gems', `Each ${words.ledger} is kept safe. ${words.gem} ${words.gem}.`);

    site = await startFixtureServer({
      '/guide': (request, response) => {
        response.writeHead(200, { 'content-type': 'text/html' }).end(guide(transplantParagraph));
        request.resume();
      },
    });
    searxng = await startLoopbackSearxng((query) => upstream[query] ?? []);
    // The model's name is this run's: the background pass gives every stored chunk a vector of it before the gateways start.
    const modelsEnv = {
      EMBEDDINGS_BASE_URL: embeddings.baseUrl,
      EMBEDDINGS_MODEL: `concepts-${marker}`,
      EMBEDDINGS_TIMEOUT_MS: String(EMBEDDINGS_TIMEOUT_MS),
    };
    worker = await startWorkerProcess('extractor-worker');
    embedder = await startWorkerProcess('research-worker', { ...modelsEnv, QUEUE_PREFIX: worker.queuePrefix });
    const ownChunks = await prisma.documentChunk.count({ where: { document: { domain: { endsWith: suffix } } } });
    await eventually('the worker embedding the stored chunks', async () => {
      const embedded = await prisma.documentChunkEmbedding.count({ where: { model: `concepts-${marker}`, chunk: { document: { domain: { endsWith: suffix } } } } });
      return embedded === ownChunks ? embedded : undefined;
    });
    const common = {
      QUEUE_PREFIX: worker.queuePrefix,
      FETCH_ALLOW_CIDRS: '127.0.0.1/32',
      SEARXNG_URL: searxng.url,
      // This suite is about what the models change, not about the pages' latency (search-budget.int-spec.ts is).
      SEARCH_BUDGET_BASIC_MS: '20000',
      SEARCH_BUDGET_ADVANCED_MS: '20000',
    };
    withModels = await startTestGateway({
      ...common,
      ...modelsEnv,
      RERANK_BASE_URL: reranker.teiUrl,
      RERANK_MODEL: 'loopback-reranker',
      RERANK_TIMEOUT_MS: String(RERANK_TIMEOUT_MS),
    });
    withoutModels = await startTestGateway(common);
    const account = await createTestAccount(withModels.prisma, { plan: 'growth' });
    apiKey = (await createTestKey(withModels.prisma, account.id)).apiKey;
  }, 180_000);

  afterAll(async () => {
    await prisma?.document.deleteMany({ where: { OR: [{ domain: { endsWith: suffix } }, { url: { startsWith: site?.url ?? 'none:' } }] } });
    await Promise.all([withModels?.close(), withoutModels?.close(), worker?.stop(), embedder?.stop(), site?.close(), searxng?.close(), embeddings?.close(), reranker?.close()]);
    await prisma?.$disconnect();
  });

  beforeEach(() => {
    for (const server of [embeddings, reranker]) {
      server.fault = 'none';
      server.delayMs = 0;
    }
  });

  it('ranks first the page that answers a question sharing no word with it, only through its meaning', async () => {
    const query = `${words.shelve} ${words.unfinished}`;
    const plain = await search(withoutModels, { query });
    expect(urls(plain.body)).not.toContain(localUrl('stash'));
    for (const depth of ['basic', 'fast', 'advanced']) {
      const { status, body } = await search(withModels, { query, search_depth: depth });
      expect(status).toBe(200);
      expect(urls(body)[0]).toBe(localUrl('stash'));
    }
    // ultra-fast stays with the words.
    expect(urls((await search(withModels, { query, search_depth: 'ultra-fast' })).body)).not.toContain(localUrl('stash'));
  });

  it('reorders advanced depth’s results by the reranker, and only there', async () => {
    const query = `${words.ledger} ${words.bolts}`;
    const plain = await search(withoutModels, { query, search_depth: 'advanced' });
    expect(own(plain.body)).toEqual([localUrl('rerank-first'), localUrl('rerank-second'), localUrl('rerank-third')]);
    reranker.received.length = 0;
    const { status, body } = await search(withModels, { query, search_depth: 'advanced' });
    expect(status).toBe(200);
    expect(own(body)[0]).toBe(localUrl('rerank-third'));
    expect(body.results.map((result) => result.score)).toEqual([...body.results.map((result) => result.score)].sort((left, right) => right - left));
    expect(reranker.received).toEqual([{ path: '/rerank', body: expect.objectContaining({ query, texts: expect.arrayContaining([expect.stringContaining(words.gem)]) }) }]);
    expect(await detailOf(withModels, body.request_id)).toEqual(expect.objectContaining({ rerank: 'model' }));

    const basic = await search(withModels, { query, search_depth: 'basic' });
    expect(basic.status).toBe(200);
    expect(reranker.received).toHaveLength(1);
    expect(await detailOf(withModels, basic.body.request_id)).toEqual(expect.objectContaining({ rerank: null }));
  });

  it('chooses the chunks of a page fetched for the search by their meaning', async () => {
    const query = `${words.graft} ${words.elsewhere}`;
    upstream[query] = [guideResult('model')];
    const { status, body } = await search(withModels, { query, chunks_per_source: 1 });
    expect(status).toBe(200);
    const fetched = body.results.find((result) => result.url === `${site.url}/guide?run=model`);
    expect(fetched?.content).toContain(words.cherrypick);
    expect(await detailOf(withModels, body.request_id)).toEqual(expect.objectContaining({ fetched: 1, chunk_embeddings: 'model' }));
    // One call for the query and the page's chunks, the query first (the local index's own call has the query alone).
    const calls = embeddings.received.filter((request) => (request.body.input as string[])[0] === query && (request.body.input as string[]).length > 1);
    expect(calls).toHaveLength(1);
    expect((calls[0].body.input as string[]).some((text) => text.includes(words.cherrypick))).toBe(true);

    // Without the model the words choose, and the page shares none with the question: its first chunk.
    upstream[query] = [guideResult('plain')];
    const plain = await search(withoutModels, { query, chunks_per_source: 1 });
    const lexical = plain.body.results.find((result) => result.url === `${site.url}/guide?run=plain`);
    expect(lexical?.content).toContain('installation');
    expect(lexical?.content).not.toContain(words.cherrypick);
  });

  it.each<[ModelServerFault, string]>([
    ['http-500', 'http-error'],
    ['silent', 'timeout'],
    ['wrong-dimension', 'wrong-dimension'],
    ['nan', 'not-finite'],
  ])('answers with the words’ ranking when the embedding model fails (%s), within its timeout, counted', async (fault, reason) => {
    // One word of the review page, one of the stash page's concept: words alone find the review page only.
    const query = `${words.edits} ${words.shelve}`;
    const plain = await search(withoutModels, { query });
    expect(urls(plain.body)).toContain(localUrl('review'));
    expect(urls((await search(withModels, { query })).body)).toContain(localUrl('stash'));

    embeddings.fault = fault;
    const before = await fallbacks('embeddings', reason);
    const degraded = await search(withModels, { query });
    expect(degraded.status).toBe(200);
    expect(urls(degraded.body)).toEqual(urls(plain.body));
    expect(degraded.ms).toBeLessThan(EMBEDDINGS_TIMEOUT_MS + 2_500);
    expect(await fallbacks('embeddings', reason)).toBeGreaterThan(before);
    // The latency of the model's calls shows with the other upstreams'.
    expect(await metric('sift_upstream_request_duration_seconds_count{upstream="embeddings",status="200"}')).toBeGreaterThan(0);
  });

  it.each<[ModelServerFault, string]>([
    ['http-500', 'http-error'],
    ['silent', 'timeout'],
    ['nan', 'not-finite'],
  ])('keeps the words’ choice of a fetched page’s chunks when the embedding model fails (%s)', async (fault, reason) => {
    const query = `${words.graft} ${words.elsewhere} ${word(fault.replace(/-/g, ''))}`;
    upstream[query] = [guideResult(`${fault}-${marker}`)];
    embeddings.fault = fault;
    const before = await fallbacks('embeddings', reason);
    const { status, body } = await search(withModels, { query, chunks_per_source: 1 });
    expect(status).toBe(200);
    const fetched = body.results.find((result) => result.url === `${site.url}/guide?run=${fault}-${marker}`);
    expect(fetched?.content).toContain('installation');
    expect(await detailOf(withModels, body.request_id)).toEqual(expect.objectContaining({ fetched: 1, chunk_embeddings: 'fallback' }));
    expect(await fallbacks('embeddings', reason)).toBeGreaterThan(before);
  });

  it.each<[ModelServerFault, string]>([
    ['http-500', 'http-error'],
    ['silent', 'timeout'],
    ['nan', 'not-finite'],
    ['malformed', 'malformed'],
  ])('answers advanced depth with the words’ order when both models fail (%s), within their timeouts, counted', async (fault, reason) => {
    const query = `${words.ledger} ${words.bolts}`;
    const plain = await search(withoutModels, { query, search_depth: 'advanced' });
    reranker.fault = fault;
    embeddings.fault = fault;
    const before = await fallbacks('rerank', reason);
    const degraded = await search(withModels, { query, search_depth: 'advanced' });
    expect(degraded.status).toBe(200);
    expect(own(degraded.body)).toEqual(own(plain.body));
    expect(degraded.ms).toBeLessThan(EMBEDDINGS_TIMEOUT_MS + RERANK_TIMEOUT_MS + 2_500);
    expect(await fallbacks('rerank', reason)).toBeGreaterThan(before);
    expect(await detailOf(withModels, degraded.body.request_id)).toEqual(expect.objectContaining({ rerank: 'fallback' }));
  });

  it('answers as without models at ultra-fast depth, and a gateway without models never calls one', async () => {
    // The worker's background pass may call the embedding model meanwhile: only calls carrying these queries count.
    const queries = [`${words.ledger} ${words.bolts}`, `${words.edits} ${words.shelve}`];
    const received = () =>
      embeddings.received.filter((request) => queries.includes((request.body.input as string[])[0])).length +
      reranker.received.filter((request) => queries.includes(request.body.query as string)).length;
    const before = received();
    for (const query of queries) {
      const strip = ({ body }: { body: SearchBody }) => body.results.map(({ url, title, content, score: relevance }) => ({ url, title, content, relevance }));
      const plain = await search(withoutModels, { query, search_depth: 'ultra-fast' });
      expect(strip(await search(withModels, { query, search_depth: 'ultra-fast' }))).toEqual(strip(plain));
      for (const depth of ['fast', 'basic', 'advanced']) await search(withoutModels, { query, search_depth: depth });
    }
    expect(received()).toBe(before);
  });
});
