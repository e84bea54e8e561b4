import { randomUUID } from 'node:crypto';
import { register } from 'prom-client';
import { webPageOf } from '@sift/content-extraction';
import { EmbeddingsClient, ModelServer, ModelServerHealth } from '@sift/models';
import { PageRepository, type PageOwner } from '@sift/pages';
import { createPrismaClient, type PrismaClient } from '@sift/persistence';
import { conceptEmbedding, createTestAccount, eventually, ownResults, startLoopbackModelServer, type LoopbackModelServer, type ModelServerFault } from '@sift/testing';
import { ChunkEmbedder } from './chunk-embedder';
import { ChunkEmbeddingLoop } from './chunk-embedding-loop';
import { ChunkVectorStore } from './chunk-vector.store';
import { DenseChunkIndex } from './dense-chunk-index';
import { LocalIndexProvider } from './local-index.provider';
import type { SearchQuery } from './search-query';

/**
 * The test model's meaning: words of one concept are near, whatever their letters. The queries below share no word
 * (or one common word) with the page that answers them; only these concepts make them near.
 */
const embed = conceptEmbedding({
  shelving: ['aside', 'unfinished', 'temporarily', 'stash', 'shelve', 'modifications', 'stashed'],
  transplant: ['graft', 'onto', 'cherry', 'pick', 'replay', 'elsewhere'],
  history: ['history', 'log', 'browse', 'keeps'],
  cooking: ['pasta', 'boil', 'water', 'salt'],
});

describe('hybrid retrieval: the words’ ranking fused with the chunks’ vectors', () => {
  let prisma: PrismaClient;
  let server: LoopbackModelServer;
  let pages: PageRepository;
  let store: ChunkVectorStore;
  let lexical: LocalIndexProvider;
  const suffix = randomUUID().slice(0, 8);
  const url = (name: string) => `https://${name}-${suffix}.test/`;
  const own = <Candidate extends { url: string }>(results: Candidate[]) => ownResults(results, `${suffix}.test`);
  const save = (owner: PageOwner, name: string, title: string, text: string) =>
    pages.save(owner, webPageOf({ url: url(name), finalUrl: url(name), title, text, language: 'en' }), 'import');
  const clientOf = (model: string) => new EmbeddingsClient(new ModelServer({ baseUrl: server.baseUrl, policy: { allowCidrs: [] } }, new ModelServerHealth('embeddings')), model);
  const hybridIndex = (model = 'concepts-v1', queryTimeoutMs = 1_000) =>
    new LocalIndexProvider(prisma, { statisticsTtlMs: 0, dense: new DenseChunkIndex(store, clientOf(model), { queryTimeoutMs, changesCheckMs: 0 }) });
  const embedAll = (model = 'concepts-v1') => new ChunkEmbedder(store, clientOf(model), { batchSize: 32 }).embedPending();
  // Other files store pages in the same database meanwhile: coverage is counted on this file's pages only.
  const ownDocuments = { document: { domain: { endsWith: `${suffix}.test` } } };
  const ownPending = (model: string) => prisma.documentChunk.count({ where: { ...ownDocuments, NOT: { embedding: { model } } } });
  const ownChunks = () => prisma.documentChunk.count({ where: ownDocuments });
  const urls = (results: { url: string }[]) => own(results).map((result) => result.url);
  const fallbacks = async (reason: string) => {
    const line = (await register.getSingleMetricAsString('sift_model_fallbacks_total')).split('\n').find((entry) => entry.includes('upstream="embeddings"') && entry.includes(`reason="${reason}"`));
    return line ? Number(line.split(' ').pop()) : 0;
  };

  // Shares no word with the stash page; shares "set", "edits"… with no page of this file either.
  const shelvingQuestion = 'how can I shelve unfinished edits temporarily';
  // Shares one word ("revision") with the cherry-pick page, two with the trunk history page, which words rank first.
  const transplantQuestion = 'graft a revision onto trunk';

  beforeAll(async () => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    server = await startLoopbackModelServer({ embed, score: () => 0 });
    pages = new PageRepository(prisma);
    store = new ChunkVectorStore(prisma);
    await save('operator', 'stash', 'Stash', 'Record the current state of the working directory and go back to a clean one. The stash keeps your modifications until you want them back.');
    await save('operator', 'cherry', 'Cherry-pick', 'Pick a revision from elsewhere and replay it here.');
    await save('operator', 'trunk', 'Trunk revision history', 'The trunk keeps every revision. Browse the trunk revision log to see the history of the trunk.');
    await save('operator', 'cooking', 'Cooking', 'Boil water, add pasta and salt.');
    lexical = new LocalIndexProvider(prisma, { statisticsTtlMs: 0 });
  });

  afterAll(async () => {
    await prisma.document.deleteMany({ where: { domain: { endsWith: `${suffix}.test` } } });
    await prisma.$disconnect();
    await server.close();
  });

  beforeEach(() => {
    server.fault = 'none';
    server.delayMs = 0;
  });

  it('embeds every stored chunk off the request path, recording the model and its size', async () => {
    const pass = await embedAll();
    expect(pass.failure).toBeUndefined();
    expect(pass.dimension).toBe(5);
    expect(await ownPending('concepts-v1')).toBe(0);
    const rows = await prisma.documentChunkEmbedding.findMany({ where: { chunk: ownDocuments } });
    expect(rows).toHaveLength(4);
    expect(rows.every((row) => row.model === 'concepts-v1' && row.dimension === 5 && row.embedding.length === 5)).toBe(true);
    expect(rows.find((row) => row.documentId === rows[0].documentId)?.embedding.slice(0, 4).some((value) => value > 0)).toBe(true);
    // A second pass leaves the vectors it made alone.
    await embedAll();
    const again = await prisma.documentChunkEmbedding.findMany({ where: { chunk: ownDocuments } });
    expect(again.map((row) => row.embeddedAt.getTime()).sort()).toEqual(rows.map((row) => row.embeddedAt.getTime()).sort());
  });

  it('finds the page that answers a question sharing no word with it only through its meaning', async () => {
    await embedAll();
    const query: SearchQuery = { query: shelvingQuestion, maxResults: 20, depth: 'basic' };
    expect(urls(await lexical.search(query))).not.toContain(url('stash'));
    expect(urls(await hybridIndex().search(query))[0]).toBe(url('stash'));
  });

  it('lifts the page nearest in meaning above the one that shares more words', async () => {
    await embedAll();
    const query: SearchQuery = { query: transplantQuestion, maxResults: 20, depth: 'basic' };
    expect(urls(await lexical.search(query)).slice(0, 2)).toEqual([url('trunk'), url('cherry')]);
    const fused = own(await hybridIndex().search(query));
    expect(fused[0].url).toBe(url('cherry'));
    expect(fused.map((result) => result.url)).toContain(url('trunk'));
    for (const result of fused) expect(result.score).toBeLessThanOrEqual(1);
    expect(fused.map((result) => result.score)).toEqual([...fused.map((result) => result.score)].sort((left, right) => right - left));
  });

  it('keeps ultra-fast depth, and a search that does not ask, to the words alone, without calling the model', async () => {
    await embedAll();
    server.received.length = 0;
    for (const query of [{ query: transplantQuestion, maxResults: 20, depth: 'ultra-fast' as const }, { query: transplantQuestion, maxResults: 20, depth: 'basic' as const, dense: false }]) {
      expect(await hybridIndex().search(query)).toEqual(await lexical.search(query));
    }
    expect(server.received).toEqual([]);
  });

  it('applies the same visibility and filters to the pages found by meaning', async () => {
    await embedAll();
    const account = await createTestAccount(prisma, { plan: 'researcher' });
    const other = await createTestAccount(prisma, { plan: 'researcher' });
    await save({ accountId: account.id }, 'private-stash', 'Shelve', 'Shelve unfinished modifications: stashed aside temporarily.');
    await embedAll();
    const query = (viewer: PageOwner | undefined, extra: Partial<SearchQuery> = {}): SearchQuery => ({ query: shelvingQuestion, maxResults: 20, depth: 'basic', viewer, ...extra });
    expect(urls(await hybridIndex().search(query({ accountId: account.id })))[0]).toBe(url('private-stash'));
    expect(urls(await hybridIndex().search(query({ accountId: other.id })))).not.toContain(url('private-stash'));
    expect(urls(await hybridIndex().search(query(undefined)))).not.toContain(url('private-stash'));
    expect(urls(await hybridIndex().search(query(undefined, { excludeDomains: [`stash-${suffix}.test`] })))).not.toContain(url('stash'));
    expect(urls(await hybridIndex().search(query(undefined, { includeDomains: [`cooking-${suffix}.test`] })))).toEqual([url('cooking')]);
  });

  it('embeds again when the model changes, and searches only the new model’s vectors', async () => {
    await embedAll();
    const chunks = await ownChunks();
    expect(await ownPending('concepts-v2')).toBe(chunks);
    // No vector of v2 yet: a search with v2 ranks by words alone.
    const query: SearchQuery = { query: shelvingQuestion, maxResults: 20, depth: 'basic' };
    expect(await hybridIndex('concepts-v2').search(query)).toEqual(await lexical.search(query));
    const pass = await embedAll('concepts-v2');
    expect(pass.embedded).toBeGreaterThanOrEqual(chunks);
    expect(await ownPending('concepts-v2')).toBe(0);
    expect(await ownPending('concepts-v1')).toBe(chunks);
    expect(urls(await hybridIndex('concepts-v2').search(query))[0]).toBe(url('stash'));
  });

  it('embeds a page stored again with other words, and forgets the old vector at once', async () => {
    await embedAll();
    await save('operator', 'cooking', 'Cooking', 'Stash the pasta aside: shelve it temporarily.');
    expect(await ownPending('concepts-v1')).toBe(1);
    const loop = new ChunkEmbeddingLoop(new ChunkEmbedder(store, clientOf('concepts-v1')), store);
    expect((await loop.once())?.embedded).toBeGreaterThanOrEqual(1);
    expect(await ownPending('concepts-v1')).toBe(0);
    // Nothing stored since: the next look sends nothing to the model (unless another file stored a page meanwhile).
    server.received.length = 0;
    const changes = await store.corpusChanges();
    const look = await loop.once();
    if (changes === (await store.corpusChanges())) {
      expect(look).toBeUndefined();
      expect(server.received).toEqual([]);
    }
    await loop.stop();
    await save('operator', 'cooking', 'Cooking', 'Boil water, add pasta and salt.');
  });

  it('runs in the background of a worker, one pass per change, and stops cleanly', async () => {
    await embedAll();
    const passes: number[] = [];
    const loop = new ChunkEmbeddingLoop(new ChunkEmbedder(store, clientOf('concepts-v1')), store, { intervalMs: 50, onPass: (pass) => passes.push(pass.embedded) });
    loop.start();
    try {
      await save('operator', 'background', 'Background', 'Shelve it aside.');
      await eventually('the new page embedded', async () => ((await ownPending('concepts-v1')) === 0 ? true : undefined), 10_000, 50);
    } finally {
      await loop.stop();
    }
    expect(passes.reduce((sum, embedded) => sum + embedded, 0)).toBeGreaterThanOrEqual(1);
    expect(await prisma.chunkEmbeddingLease.count()).toBe(0);
  });

  it.each<[ModelServerFault, string]>([
    ['http-500', 'http-error'],
    ['malformed', 'malformed'],
    ['nan', 'not-finite'],
    ['wrong-dimension', 'wrong-dimension'],
    ['silent', 'timeout'],
  ])('ranks by words alone, within the deadline, when the model server answers %s (counted as %s)', async (fault, reason) => {
    await embedAll();
    const query: SearchQuery = { query: transplantQuestion, maxResults: 20, depth: 'basic', deadlineMs: 2_000 };
    const expected = await lexical.search(query);
    const index = hybridIndex('concepts-v1', 300);
    // The vectors are in memory before the fault, as in a running gateway.
    await index.search(query);
    server.fault = fault;
    const counted = await fallbacks(reason);
    const started = performance.now();
    // The words' order (scores move by a hair when other suites store pages in the same database meanwhile).
    expect((await index.search(query)).map((candidate) => candidate.url)).toEqual(expected.map((candidate) => candidate.url));
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(await fallbacks(reason)).toBe(counted + 1);
  });

  it('stops an embedding pass at the model’s first failure, storing nothing of that batch', async () => {
    await save('operator', 'late', 'Late', 'Shelve this page temporarily.');
    server.fault = 'http-500';
    const pass = await embedAll();
    expect(pass.failure).toMatchObject({ reason: 'http-error' });
    server.fault = 'none';
    expect(await ownPending('concepts-v1')).toBe(1);
    await embedAll();
    expect(await ownPending('concepts-v1')).toBe(0);
  });
});
