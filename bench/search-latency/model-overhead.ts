// The time an embedding model and a reranker add to a search. A few hundred documents (Cranfield sentences recombined,
// imported with `admin index import` into database sift_bench_models), their chunks embedded by a loopback model
// server speaking OpenAI's /v1/embeddings and text-embeddings-inference's /rerank with a fixed delay per answer (20 ms
// by default: a small CPU model on the same host), and two gateways on that database: one without models, one with
// EMBEDDINGS_* and RERANK_* pointing at the loopback server. One client sends each Cranfield query to both, in a random
// order per query, at each depth; the bench prints each side's p50 and p90 and the median of the paired differences.
//
//   SIFT_BENCH_DATA=/path/to/bench-data [BENCH_MODEL_DELAY_MS=20] [BENCH_DOCUMENTS=300] [BENCH_REQUESTS=150] \
//   [BENCH_DATABASE_URL=postgresql://…/sift_bench_models] node scripts/run-ts.js bench/search-latency/model-overhead.ts
//
// The vectors are hashed bags of words (384 dimensions): their meaning is beside the point, their size and the
// server's delay are what a real model costs the search (its compute time is the delay).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { EmbeddingsClient, ModelServer, ModelServerHealth } from '@sift/models';
import { createPrismaClient } from '@sift/persistence';
import { ChunkEmbedder, ChunkVectorStore } from '@sift/search-index';
import { startLoopbackModelServer } from '@sift/testing';
import { readCranfieldJsonl } from '../search-quality/bench-corpora';
import { createBenchKey, dropDatabase, importThroughAdmin, searchOverHttp, startGateway, type GatewayProcess } from '../search-quality/search-stack';
import { cranfieldQueryTexts } from './cranfield-queries';
import { synthesiseCorpus, type SourceDocument } from './synthetic-corpus';

const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/sift_bench_models';
const documentCount = Number(process.env.BENCH_DOCUMENTS ?? 300);
const requests = Number(process.env.BENCH_REQUESTS ?? 150);
const modelDelayMs = Number(process.env.BENCH_MODEL_DELAY_MS ?? 20);
const warmUpRequests = 30;
const dimensions = 384;
const model = 'bench-hashed-words';
const depths = ['ultra-fast', 'fast', 'basic', 'advanced'] as const;

/** A hashed bag of words: each word adds ±1 to one of 384 components (FNV-1a), plus a constant so none is zero. */
function hashedEmbedding(text: string): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  vector[0] = 0.1;
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)) {
    let hash = 0x811c9dc5;
    for (let index = 0; index < word.length; index++) hash = Math.imul(hash ^ word.charCodeAt(index), 0x01000193) >>> 0;
    vector[1 + (hash % (dimensions - 1))] += hash & 0x80000000 ? -1 : 1;
  }
  return vector;
}

/** A passage scores by the query words it holds. */
function overlapScore(query: string, passage: string): number {
  const words = new Set(passage.toLowerCase().split(/[^\p{L}\p{N}]+/u));
  return query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word && words.has(word)).length;
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

async function timedSearch(gateway: GatewayProcess, apiKey: string, query: string, depth: string): Promise<number> {
  const sent = performance.now();
  await searchOverHttp(gateway, apiKey, { query, search_depth: depth, max_results: 10 });
  return performance.now() - sent;
}

async function importCorpus(): Promise<void> {
  await dropDatabase(databaseUrl);
  const workDirectory = mkdtempSync(join(tmpdir(), 'sift-bench-models-'));
  try {
    const documents = synthesiseCorpus(readCranfieldJsonl<SourceDocument>('corpus.jsonl'), documentCount);
    const importFile = join(workDirectory, 'synthetic.jsonl');
    writeFileSync(importFile, documents.map((document) => JSON.stringify(document)).join('\n'));
    const imported = await importThroughAdmin(databaseUrl, importFile);
    console.log(`admin index import: imported ${imported.imported}, skipped ${imported.skipped} in ${imported.seconds.toFixed(1)} s`);
  } finally {
    rmSync(workDirectory, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  await importCorpus();
  const server = await startLoopbackModelServer({ embed: hashedEmbedding, score: overlapScore });
  let plain: GatewayProcess | undefined;
  let withModels: GatewayProcess | undefined;
  try {
    // The backfill, as `admin index embed` runs it, before the delay is set: the bench measures searches, not this.
    const prisma = createPrismaClient(databaseUrl, 2);
    const store = new ChunkVectorStore(prisma);
    const client = new EmbeddingsClient(new ModelServer({ baseUrl: server.baseUrl, policy: { allowCidrs: [] } }, new ModelServerHealth('embeddings')), model);
    const pass = await new ChunkEmbedder(store, client).embedPending();
    await prisma.$disconnect();
    if (pass.failure) throw new Error(`the backfill failed: ${pass.failure.message}`);
    console.log(`Embedded ${pass.embedded} chunks of ${documentCount} documents (${pass.dimension} dimensions, held in memory by the gateway: no pgvector here)`);
    const vacuum = new Client({ connectionString: databaseUrl });
    await vacuum.connect();
    await vacuum.query('VACUUM ANALYZE documents, document_postings, document_chunks, document_chunk_embeddings');
    await vacuum.end();
    server.delayMs = modelDelayMs;

    const env = { RATE_LIMIT_PROD_PER_MINUTE: '1000000' };
    plain = await startGateway(databaseUrl, env);
    withModels = await startGateway(databaseUrl, {
      ...env,
      EMBEDDINGS_BASE_URL: server.baseUrl,
      EMBEDDINGS_MODEL: model,
      RERANK_BASE_URL: server.teiUrl,
      RERANK_MODEL: 'bench-overlap',
      // The defaults: a search waits at most 1 s for the query's vector and 2 s for the reranker.
    });
    const apiKey = await createBenchKey(databaseUrl);
    const queries = cranfieldQueryTexts();
    for (let index = 0; index < warmUpRequests; index++) {
      for (const gateway of [plain, withModels]) await searchOverHttp(gateway, apiKey, { query: queries[index], search_depth: 'advanced', max_results: 10 });
    }

    console.log(
      `${requests} sequential requests per depth and side (1 client), Cranfield queries, max_results 10, model server delay ${modelDelayMs} ms per answer, ` +
        'no upstream provider (the local index only)',
    );
    console.log('| Depth | Without models p50 | p90 | With models p50 | p90 | Added per search (median of paired differences) | Model calls per search |');
    console.log('|---|---|---|---|---|---|---|');
    for (const depth of depths) {
      const without: number[] = [];
      const withTimes: number[] = [];
      const differences: number[] = [];
      const callsBefore = server.received.length;
      for (let index = 0; index < requests; index++) {
        const query = queries[(warmUpRequests + index) % queries.length];
        // A random order per query, so neither side always runs on a cache the other just warmed.
        const plainFirst = Math.random() < 0.5;
        const first = await timedSearch(plainFirst ? plain : withModels, apiKey, query, depth);
        const second = await timedSearch(plainFirst ? withModels : plain, apiKey, query, depth);
        const [plainMs, modelsMs] = plainFirst ? [first, second] : [second, first];
        without.push(plainMs);
        withTimes.push(modelsMs);
        differences.push(modelsMs - plainMs);
      }
      const calls = (server.received.length - callsBefore) / requests;
      console.log(
        `| ${depth} | ${percentile(without, 0.5).toFixed(1)} ms | ${percentile(without, 0.9).toFixed(1)} ms | ${percentile(withTimes, 0.5).toFixed(1)} ms | ` +
          `${percentile(withTimes, 0.9).toFixed(1)} ms | ${percentile(differences, 0.5).toFixed(1)} ms | ${calls.toFixed(2)} |`,
      );
    }
  } finally {
    await Promise.all([plain?.stop(), withModels?.stop()]);
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
