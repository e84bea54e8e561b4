// Search quality on Cranfield: imports the corpus through importJsonl into a fresh database, runs the 225
// queries through LocalIndexProvider and prints nDCG@10, MAP and P@10 (metric: ../shared/bench-data/README.md).
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from 'pg';
import { applyMigrations, createPrismaClient, ensureDatabaseExists } from '@sift/persistence';
import { DocumentStore, LocalIndexProvider, importJsonl } from '@sift/search-index';
import { averagePrecision, ndcgAtK, precisionAtK, recallAtK } from './ranking-metrics';
import type { Judgements } from './ranking-metrics';

const dataDirectory = resolve(__dirname, '../../../shared/bench-data/cranfield/beir');
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/sift_bench';
const documentUrlPrefix = 'https://cranfield.example/doc/';

async function readJsonl<T>(path: string): Promise<T[]> {
  const rows: T[] = [];
  for await (const line of createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity })) {
    if (line.trim()) rows.push(JSON.parse(line) as T);
  }
  return rows;
}

async function recreateDatabase(url: string): Promise<void> {
  const admin = new URL(url);
  const name = decodeURIComponent(admin.pathname.slice(1));
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
  await ensureDatabaseExists(url);
  await applyMigrations(url);
}

function readJudgements(): Map<string, Judgements> {
  const byQuery = new Map<string, Judgements>();
  const lines = readFileSync(join(dataDirectory, 'qrels', 'test.tsv'), 'utf8').trim().split('\n').slice(1);
  for (const line of lines) {
    const [queryId, corpusId, score] = line.split('\t');
    const judgements = byQuery.get(queryId) ?? new Map<string, number>();
    judgements.set(corpusId, Number(score));
    byQuery.set(queryId, judgements);
  }
  return byQuery;
}

function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

async function main(): Promise<void> {
  await recreateDatabase(databaseUrl);
  const prisma = createPrismaClient(databaseUrl);
  const workDirectory = mkdtempSync(join(tmpdir(), 'sift-bench-search-'));
  try {
    const corpus = await readJsonl<{ _id: string; title: string; text: string }>(join(dataDirectory, 'corpus.jsonl'));
    const importFile = join(workDirectory, 'cranfield.jsonl');
    writeFileSync(
      importFile,
      corpus.map((document) => JSON.stringify({ url: `${documentUrlPrefix}${document._id}`, title: document.title, text: document.text })).join('\n'),
    );
    const store = new DocumentStore(prisma);
    const importStarted = Date.now();
    const imported = await importJsonl(importFile, {
      store,
      onProgress: (progress) => process.stderr.write(`\rimport: ${progress.lines} lines, ${progress.imported} imported, ${progress.skipped} skipped`),
    });
    process.stderr.write('\n');
    console.log(`Imported ${imported.imported} documents (${imported.skipped} skipped) in ${((Date.now() - importStarted) / 1000).toFixed(1)} s`);

    const queries = await readJsonl<{ _id: string; text: string }>(join(dataDirectory, 'queries.jsonl'));
    const judgementsByQuery = readJudgements();
    const index = new LocalIndexProvider(prisma);
    const depth = Number(process.env.BENCH_RESULTS ?? 100);
    const ndcg: number[] = [];
    const ndcgDefault: number[] = [];
    const map: number[] = [];
    const precision: number[] = [];
    const recall: number[] = [];
    const latencies: number[] = [];
    for (const query of queries) {
      const judgements = judgementsByQuery.get(query._id) ?? new Map<string, number>();
      const started = process.hrtime.bigint();
      const top10 = await index.search({ query: query.text, maxResults: 10 });
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
      const deep = await index.search({ query: query.text, maxResults: depth });
      const rankedDefault = top10.map((candidate) => candidate.url.slice(documentUrlPrefix.length));
      const ranked = deep.map((candidate) => candidate.url.slice(documentUrlPrefix.length));
      ndcgDefault.push(ndcgAtK(rankedDefault, judgements, 10));
      ndcg.push(ndcgAtK(ranked, judgements, 10));
      map.push(averagePrecision(ranked, judgements));
      precision.push(precisionAtK(ranked, judgements, 10));
      recall.push(recallAtK(ranked, judgements, 100));
    }
    latencies.sort((left, right) => left - right);
    const report = {
      queries: queries.length,
      ndcgAt10: mean(ndcg),
      ndcgAt10DefaultCandidates: mean(ndcgDefault),
      map: mean(map),
      precisionAt10: mean(precision),
      recallAt100: mean(recall),
      latencyP50Ms: latencies[Math.floor(latencies.length / 2)],
    };
    console.log(`Queries: ${report.queries}`);
    console.log(`nDCG@10: ${report.ndcgAt10.toFixed(3)} (top 10 only, default 100 candidates: ${report.ndcgAt10DefaultCandidates.toFixed(3)})`);
    console.log(`MAP (top ${depth}): ${report.map.toFixed(3)}`);
    console.log(`P@10: ${report.precisionAt10.toFixed(3)}`);
    console.log(`Recall@100: ${report.recallAt100.toFixed(3)}`);
    console.log(`Search latency p50 (top 10): ${report.latencyP50Ms.toFixed(1)} ms`);
  } finally {
    rmSync(workDirectory, { recursive: true, force: true });
    await prisma.$disconnect();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
