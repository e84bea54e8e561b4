import { createHash, randomUUID } from 'node:crypto';
import { register } from 'prom-client';
import { loadConfig } from '@sift/config';
import { webPageOf } from '@sift/content-extraction';
import { PageRepository } from '@sift/pages';
import { createPrismaClient, type PrismaClient } from '@sift/persistence';
import { createRedisConnection, JobQueue } from '@sift/queue';
import { OpenAiCompatibleClient } from '@sift/llm';
import { type ResearchDependencies, type ResearchRequest, runResearch } from '@sift/research';
import { egressPolicyFromConfig } from '@sift/safe-fetch';
import { ChunkVectorStore, configuredSearchProviders, SearchFanOut } from '@sift/search-index';
import { conceptEmbedding, type ChatRequest, startLoopbackChatServer, startLoopbackModelServer, type LoopbackModelServer, type ModelServerFault } from '@sift/testing';
import type { Redis } from 'ioredis';
import { researchDependenciesFor } from './research-dependencies';
import { researchEnv } from './research-env';
import { researchIndexOf } from './research-index';

/** The test model's meaning: words of one concept are near, whatever their letters. */
const embed = conceptEmbedding({
  shelving: ['aside', 'unfinished', 'temporarily', 'stash', 'shelve', 'modifications', 'stashed'],
  rebasing: ['rebase', 'replays', 'rewrite', 'rewrites'],
});

/** The sentence the test reranker reads as the answer; the words' ranking puts it below two others. */
const FAVOURED = 'Only rebase a branch that nobody else has fetched yet.';
/** A passage of the long guide the test reranker reads as the answer; the words' ranking puts two others first. */
const FAVOURED_PASSAGE = 'Keep the history of private work linear';
/** The test cross-encoder: the favoured sentence or passage first, the others by length (any order but the words'). */
const score = (_query: string, passage: string) => (passage.includes(FAVOURED.slice(0, 30)) || passage.includes(FAVOURED_PASSAGE) ? 10 : passage.length / 1_000);
/** A paragraph of about 400 characters (a chunk of its own) that says `words` among filler. */
const paragraph = (words: string) => `${words}. ${'The documentation describes the options in the order the command reads them. '.repeat(5)}`.trim();

// The research worker's search and writing with the operator's models configured as an operator does (EMBEDDINGS_*,
// RERANK_*), against a loopback model server speaking the real wire formats: its local index ranks by meaning too, and
// its reranker chooses the sentences a report quotes; every failure of the reranker leaves the report as without it.
describe('the research worker with an embedding model and a reranker', () => {
  let prisma: PrismaClient;
  let server: LoopbackModelServer;
  let redis: Redis;
  let jobQueue: JobQueue;
  const suffix = randomUUID().slice(0, 8);
  const model = `research-concepts-${suffix}`;
  const url = (name: string) => `https://${name}-${suffix}.test/`;
  const task = { requestId: randomUUID(), accountId: randomUUID() };
  const logged: string[] = [];

  const configWith = (env: Record<string, string>) => loadConfig(researchEnv, { DATABASE_URL: process.env.DATABASE_URL, REDIS_URL: process.env.REDIS_URL, ...env });
  const modelsEnv = () => ({ EMBEDDINGS_BASE_URL: server.baseUrl, EMBEDDINGS_MODEL: model, RERANK_BASE_URL: server.teiUrl, RERANK_TIMEOUT_MS: '400' });

  /** The worker's dependencies for a task under this configuration, its search kept to this file's pages. */
  function dependenciesWith(env: Record<string, string>, pagesKept = (hitUrl: string) => hitUrl !== url('guide')): ResearchDependencies {
    const config = configWith(env);
    const policy = egressPolicyFromConfig(config);
    const { localIndex, reranker } = researchIndexOf(config, prisma, policy, (level, message) => void logged.push(`${level}: ${message}`));
    const fanOut = new SearchFanOut(configuredSearchProviders(localIndex, { searxngUrl: '', policy }), () => undefined);
    const llm = config.LLM_BASE_URL ? new OpenAiCompatibleClient({ baseUrl: config.LLM_BASE_URL, model: config.LLM_MODEL, policy }) : undefined;
    const dependencies = researchDependenciesFor({ fanOut, jobQueue, llm, reranker, maxCacheAgeMs: 0 }, task);
    return { ...dependencies, search: async (query, options) => (await dependencies.search(query, options)).filter((hit) => hit.url.includes(`-${suffix}.test`) && pagesKept(hit.url)) };
  }

  const request: ResearchRequest = { input: 'When should I rebase a branch?', model: 'mini', outputLength: 'short', citationFormat: 'numbered', includeDomains: [], excludeDomains: [] };
  const progress = () => ({ emit: async () => undefined, checkpoint: async () => undefined, signal: new AbortController().signal, deadlineAt: new Date(Date.now() + 60_000) });
  const fallbacks = async (reason: string) => {
    const line = (await register.getSingleMetricAsString('sift_model_fallbacks_total')).split('\n').find((entry) => entry.includes('upstream="rerank"') && entry.includes(`reason="${reason}"`));
    return line ? Number(line.split(' ').pop()) : 0;
  };

  beforeAll(async () => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    server = await startLoopbackModelServer({ embed, score });
    redis = createRedisConnection(process.env.REDIS_URL as string);
    jobQueue = new JobQueue({ connection: redis, prefix: `test-research-models-${suffix}` });
    const pages = new PageRepository(prisma);
    const save = (name: string, title: string, text: string) => pages.save('operator', webPageOf({ url: url(name), finalUrl: url(name), title, text, language: 'en' }), 'import');
    await save('stash', 'Stash', 'Record the current state of the working directory and go back to a clean one. The stash keeps your modifications until you want them back.');
    await save(
      'rebase',
      'Rebase a branch',
      `To rebase a branch, check out the branch and rebase it onto another branch. A rebase of a branch replays the branch on top of another base. ${FAVOURED} Conflicts stop the rebase until they are resolved.`,
    );
    await save(
      'guide',
      'Rebasing guide',
      [
        paragraph('To rebase a branch, rebase the branch onto the upstream branch; rebase the branch again after each fetch'),
        paragraph('A rebase of a branch rewrites every commit of the branch, so rebase a branch before you publish the branch'),
        paragraph(`${FAVOURED_PASSAGE}: rebase what you have not shared`),
        paragraph('Merging keeps both histories as they happened'),
        paragraph('Tags name commits and do not move'),
      ].join('\n\n'),
    );
    // The chunks' vectors as the extractor worker's background loop stores them, for this file's pages only.
    const chunks = await prisma.documentChunk.findMany({ where: { document: { domain: { endsWith: `${suffix}.test` } } } });
    const written = await new ChunkVectorStore(prisma).write(
      model,
      chunks.map((chunk) => ({ documentId: chunk.documentId, position: chunk.position, contentHash: createHash('md5').update(chunk.content).digest('hex'), vector: Float32Array.from(embed(chunk.content)) })),
    );
    expect(written).toBe(chunks.length);
  });

  afterAll(async () => {
    await prisma.document.deleteMany({ where: { domain: { endsWith: `${suffix}.test` } } });
    await Promise.all([prisma.$disconnect(), server.close(), jobQueue.close()]);
    redis.disconnect();
  });

  beforeEach(() => {
    server.fault = 'none';
    server.delayMs = 0;
    server.received.length = 0;
  });

  const searchOf = (dependencies: ResearchDependencies, query: string) => dependencies.search(query, { maxResults: 6, includeDomains: [], excludeDomains: [], deadlineMs: 5_000 });

  it('searches by meaning when EMBEDDINGS_* is set: a question sharing no word with its page finds it', async () => {
    const question = 'how can I shelve unfinished edits temporarily';
    expect((await searchOf(dependenciesWith({}), question)).map((hit) => hit.url)).not.toContain(url('stash'));
    expect(server.received).toEqual([]);
    expect((await searchOf(dependenciesWith(modelsEnv()), question)).map((hit) => hit.url)[0]).toBe(url('stash'));
    expect(server.received.map((call) => call.path)).toContain('/v1/embeddings');
  });

  it('quotes the sentences the reranker chooses when RERANK_* is set, and only then', async () => {
    const withoutModels = await runResearch(request, { searches: 4, extractions: 0 }, dependenciesWith({}), progress());
    expect(withoutModels.content).not.toContain(FAVOURED);
    expect(server.received).toEqual([]);

    const reranked = await runResearch(request, { searches: 4, extractions: 0 }, dependenciesWith(modelsEnv()), progress());
    const overview = (reranked.content as string).split('## ')[1];
    expect(overview).toContain(`“${FAVOURED}”`);
    const rerankCalls = server.received.filter((call) => call.path === '/rerank');
    expect(rerankCalls.length).toBeGreaterThan(0);
    expect(rerankCalls[0].body).toMatchObject({ query: request.input, texts: expect.arrayContaining([FAVOURED]) });
  });

  it('gives a model the passages the reranker chooses when RERANK_* is set, its best chunks by words otherwise', async () => {
    const chat = await startLoopbackChatServer((asked: ChatRequest) => (asked.stream ? { pieces: ['Rebase private work only [1].'] } : { text: 'no plan' }));
    try {
      const guideOnly = (hitUrl: string) => hitUrl === url('guide');
      const promptWith = async (env: Record<string, string>) => {
        chat.received.length = 0;
        const outcome = await runResearch(request, { searches: 4, extractions: 0 }, dependenciesWith({ LLM_BASE_URL: chat.baseUrl, ...env }, guideOnly), progress());
        expect(outcome.mode).toBe('llm');
        return chat.received.find((call) => call.stream)?.messages[1].content ?? '';
      };
      const byWords = await promptWith({});
      expect(byWords).toContain('rebase the branch onto the upstream branch');
      expect(byWords).not.toContain(FAVOURED_PASSAGE);
      const reranked = await promptWith({ RERANK_BASE_URL: server.teiUrl });
      expect(reranked).toContain(FAVOURED_PASSAGE);
      expect(server.received.filter((call) => call.path === '/rerank').some((call) => (call.body.texts as string[]).some((text) => text.includes(FAVOURED_PASSAGE)))).toBe(true);
    } finally {
      await chat.close();
    }
  });

  it.each<[ModelServerFault, string, number]>([
    ['http-500', 'http-error', 0],
    ['malformed', 'malformed', 0],
    ['nan', 'not-finite', 0],
    ['silent', 'timeout', 0],
    ['none', 'timeout', 3_000],
  ])('writes the report it writes without a reranker when the reranker answers %s (counted as %s), within its deadline', async (fault, reason, delayMs) => {
    const without = await runResearch(request, { searches: 4, extractions: 0 }, dependenciesWith({}), progress());
    const before = await fallbacks(reason);
    server.fault = fault;
    server.delayMs = delayMs;
    const started = performance.now();
    const degraded = await runResearch(request, { searches: 4, extractions: 0 }, dependenciesWith({ ...modelsEnv(), EMBEDDINGS_BASE_URL: '' }), progress());
    // RERANK_TIMEOUT_MS is 400 ms per call, the sections' calls run at once.
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(degraded.content).toEqual(without.content);
    expect(degraded.sources).toEqual(without.sources);
    expect(await fallbacks(reason)).toBeGreaterThan(before);
  });
});
