import { Registry } from 'prom-client';
import { startLoopbackModelServer, type LoopbackModelServer, type ModelServerFault } from '@sift/testing';
import { EmbeddingsClient } from './embeddings.client';
import { ModelServer } from './model-server';
import { ModelServerHealth } from './model-server-health';
import { RerankClient } from './rerank.client';
import { RerankService } from './rerank.service';

const policy = { allowCidrs: [] };

/** A vector per text: its length in the first component, the count of "a" in the second. */
const embed = (text: string) => [text.length, [...text].filter((letter) => letter === 'a').length, 1];
/** A passage scores by the query words it holds. */
const score = (query: string, passage: string) => query.split(' ').filter((word) => passage.includes(word)).length;

describe('the model clients against a loopback server speaking the real wire formats', () => {
  let server: LoopbackModelServer;
  let registry: Registry;
  let logged: string[];

  const healthOf = (name: 'embeddings' | 'rerank') => new ModelServerHealth(name, (level, message) => logged.push(`${level}: ${message}`), registry);
  const embeddings = () => new EmbeddingsClient(new ModelServer({ baseUrl: server.baseUrl, apiKey: 'sk-embed', policy }, healthOf('embeddings')), 'test-embedder');
  const fallbacks = async (upstream: string, reason: string) =>
    (await registry.getSingleMetricAsString('sift_model_fallbacks_total')).split('\n').find((line) => line.includes(`upstream="${upstream}"`) && line.includes(`reason="${reason}"`));

  beforeAll(async () => {
    server = await startLoopbackModelServer({ embed, score });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.fault = 'none';
    server.delayMs = 0;
    server.received.length = 0;
    registry = new Registry();
    logged = [];
  });

  it('embeds a batch with POST /v1/embeddings, vectors in the inputs order', async () => {
    const outcome = await embeddings().embed(['abc', 'banana'], { deadlineMs: 2_000 });
    expect(outcome).toEqual({ ok: true, value: [Float32Array.from([3, 1, 1]), Float32Array.from([6, 3, 1])] });
    expect(server.received).toEqual([{ path: '/v1/embeddings', body: { model: 'test-embedder', input: ['abc', 'banana'] } }]);
  });

  it.each<[ModelServerFault, string]>([
    ['http-500', 'http-error'],
    ['malformed', 'malformed'],
    ['nan', 'not-finite'],
  ])('turns a server answering %s into a %s outcome, counted, and logs the outage once', async (fault, reason) => {
    server.fault = fault;
    const client = embeddings();
    for (let call = 0; call < 3; call++) {
      const outcome = await client.embed(['abc'], { deadlineMs: 2_000 });
      expect(outcome).toMatchObject({ ok: false, failure: { reason } });
    }
    expect(await fallbacks('embeddings', reason)).toMatch(/ 3$/);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(new RegExp(`^warn: the embeddings model server failed \\(${reason}`));
    server.fault = 'none';
    expect((await client.embed(['abc'], { deadlineMs: 2_000 })).ok).toBe(true);
    expect(logged).toEqual([logged[0], 'log: the embeddings model server answers again']);
  });

  it('refuses vectors of another size than the model’s recorded one', async () => {
    expect(await embeddings().embed(['abc'], { deadlineMs: 2_000, dimension: 4 })).toMatchObject({ ok: false, failure: { reason: 'wrong-dimension' } });
    server.fault = 'wrong-dimension';
    expect(await embeddings().embed(['abc'], { deadlineMs: 2_000, dimension: 3 })).toMatchObject({ ok: false, failure: { reason: 'wrong-dimension' } });
  });

  it('gives up at its deadline on a server that does not answer', async () => {
    server.fault = 'silent';
    const started = performance.now();
    const outcome = await embeddings().embed(['abc'], { deadlineMs: 150 });
    expect(outcome).toMatchObject({ ok: false, failure: { reason: 'timeout' } });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(await fallbacks('embeddings', 'timeout')).toMatch(/ 1$/);
  });

  it('says unreachable when nothing listens', async () => {
    const closed = await startLoopbackModelServer({ embed, score });
    await closed.close();
    const client = new EmbeddingsClient(new ModelServer({ baseUrl: closed.baseUrl, policy }, healthOf('embeddings')), 'test-embedder');
    expect(await client.embed(['abc'], { deadlineMs: 2_000 })).toMatchObject({ ok: false, failure: { reason: 'unreachable' } });
  });

  it('reranks in the text-embeddings-inference format (POST /rerank { query, texts })', async () => {
    const client = new RerankClient(new ModelServer({ baseUrl: server.teiUrl, policy }, healthOf('rerank')), 'test-reranker', 'auto', server.teiUrl);
    const outcome = await client.rerank('stash work', ['nothing', 'stash it', 'stash your work'], { deadlineMs: 2_000 });
    expect(outcome).toEqual({ ok: true, value: [{ index: 2, score: 2 }, { index: 1, score: 1 }, { index: 0, score: 0 }] });
    expect(server.received).toEqual([{ path: '/rerank', body: { query: 'stash work', texts: ['nothing', 'stash it', 'stash your work'] } }]);
  });

  it('reranks in the Cohere/Jina format (POST /v1/rerank { model, query, documents, top_n })', async () => {
    const client = new RerankClient(new ModelServer({ baseUrl: server.baseUrl, policy }, healthOf('rerank')), 'test-reranker', 'auto', server.baseUrl);
    const outcome = await client.rerank('stash work', ['stash your work', 'nothing'], { deadlineMs: 2_000 });
    expect(outcome).toEqual({ ok: true, value: [{ index: 0, score: 2 }, { index: 1, score: 0 }] });
    expect(server.received).toEqual([{ path: '/v1/rerank', body: { model: 'test-reranker', query: 'stash work', documents: ['stash your work', 'nothing'], top_n: 2 } }]);
  });

  it('finds the format a server speaks when the URL guessed wrong, and keeps it', async () => {
    // A versioned path is guessed Cohere's; this one is a text-embeddings-inference server behind a /v1 prefix.
    const teiBehindPrefix = `${server.teiUrl}/v9`;
    const client = new RerankClient(new ModelServer({ baseUrl: server.teiUrl, policy }, healthOf('rerank')), 'test-reranker', 'auto', teiBehindPrefix);
    expect((await client.rerank('work', ['work', 'play'], { deadlineMs: 2_000 })).ok).toBe(true);
    expect((await client.rerank('work', ['play', 'work'], { deadlineMs: 2_000 })).ok).toBe(true);
    expect(server.received.map((request) => request.path)).toEqual(['/rerank', '/rerank', '/rerank']);
    expect(server.received.map((request) => 'texts' in request.body)).toEqual([false, true, true]);
  });

  it('keeps the given order when the reranker fails or is slower than the caller can wait', async () => {
    const service = new RerankService(new RerankClient(new ModelServer({ baseUrl: server.teiUrl, policy }, healthOf('rerank')), 'm', 'tei', server.teiUrl), 5_000);
    expect(await service.rerank('work', ['play', 'work'], 2_000)).toEqual({ order: [1, 0], scores: [0, 1], reranked: true });
    server.fault = 'nan';
    expect(await service.rerank('work', ['play', 'work'], 2_000)).toEqual({ order: [0, 1], reranked: false });
    server.fault = 'none';
    server.delayMs = 2_000;
    const started = performance.now();
    expect(await service.rerank('work', ['play', 'work'], 100)).toEqual({ order: [0, 1], reranked: false });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(await fallbacks('rerank', 'not-finite')).toMatch(/ 1$/);
    expect(await fallbacks('rerank', 'timeout')).toMatch(/ 1$/);
    expect(logged.filter((line) => line.startsWith('warn'))).toHaveLength(1);
    expect(await new RerankService(undefined, 5_000).rerank('work', ['play', 'work'], 2_000)).toEqual({ order: [0, 1], reranked: false });
  });
});
