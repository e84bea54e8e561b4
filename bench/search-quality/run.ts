// Search quality on Cranfield, measured as a user gets it: the corpus is imported with `admin index import`
// into a fresh database, the gateway runs as its own process, and the 225 queries go through POST /search
// (max_results 20, the API's ceiling, so MAP and P@10 are computed over those 20) at ultra-fast and basic depth.
// The same queries through LocalIndexProvider directly, with 100 candidates, are the secondary figure.
// Metric: ../shared/bench-data/README.md.
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createPrismaClient } from '@sift/persistence';
import { LocalIndexProvider } from '@sift/search-index';
import { benchDataDirectory } from '@sift/testing';
import { averagePrecision, ndcgAtK, precisionAtK, recallAtK } from './ranking-metrics';
import type { Judgements } from './ranking-metrics';
import { createBenchKey, dropDatabase, importThroughAdmin, searchOverHttp, startGateway, type GatewayProcess } from './search-stack';

const dataDirectory = join(benchDataDirectory(), 'cranfield', 'beir');
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/sift_bench';
const documentUrlPrefix = 'https://cranfield.example/doc/';
const httpDepths = ['ultra-fast', 'basic'] as const;
const httpMaxResults = 20;

async function readJsonl<T>(path: string): Promise<T[]> {
  const rows: T[] = [];
  for await (const line of createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity })) {
    if (line.trim()) rows.push(JSON.parse(line) as T);
  }
  return rows;
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

interface QueryScores {
  ndcgAt10: number[];
  map: number[];
  precisionAt10: number[];
  latenciesMs: number[];
}

function emptyScores(): QueryScores {
  return { ndcgAt10: [], map: [], precisionAt10: [], latenciesMs: [] };
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

function corpusIdsOf(urls: string[]): string[] {
  return urls.map((url) => url.slice(documentUrlPrefix.length));
}

async function main(): Promise<void> {
  await dropDatabase(databaseUrl);
  const workDirectory = mkdtempSync(join(tmpdir(), 'sift-bench-search-'));
  let gateway: GatewayProcess | undefined;
  const prisma = createPrismaClient(databaseUrl, 2);
  try {
    const corpus = await readJsonl<{ _id: string; title: string; text: string }>(join(dataDirectory, 'corpus.jsonl'));
    const importFile = join(workDirectory, 'cranfield.jsonl');
    writeFileSync(
      importFile,
      corpus.map((document) => JSON.stringify({ url: `${documentUrlPrefix}${document._id}`, title: document.title, text: document.text })).join('\n'),
    );
    const imported = await importThroughAdmin(databaseUrl, importFile);
    console.log(`admin index import: imported ${imported.imported}, skipped ${imported.skipped} in ${imported.seconds.toFixed(1)} s`);

    // Started after the import: the index's corpus statistics are read once per process.
    gateway = await startGateway(databaseUrl, { RATE_LIMIT_PROD_PER_MINUTE: '1000000' });
    const apiKey = await createBenchKey(databaseUrl);
    const queries = await readJsonl<{ _id: string; text: string }>(join(dataDirectory, 'queries.jsonl'));
    const judgementsByQuery = readJudgements();

    const overHttp = new Map(httpDepths.map((depth) => [depth, emptyScores()]));
    for (const depth of httpDepths) {
      const scores = overHttp.get(depth) ?? emptyScores();
      // One warm-up request, so the first measured query does not pay for the gateway's lazy start.
      await searchOverHttp(gateway, apiKey, { query: queries[0].text, search_depth: depth, max_results: httpMaxResults });
      for (const query of queries) {
        const judgements = judgementsByQuery.get(query._id) ?? new Map<string, number>();
        const started = process.hrtime.bigint();
        const hits = await searchOverHttp(gateway, apiKey, { query: query.text, search_depth: depth, max_results: httpMaxResults });
        scores.latenciesMs.push(Number(process.hrtime.bigint() - started) / 1e6);
        const ranked = corpusIdsOf(hits.map((hit) => hit.url));
        scores.ndcgAt10.push(ndcgAtK(ranked, judgements, 10));
        scores.map.push(averagePrecision(ranked, judgements));
        scores.precisionAt10.push(precisionAtK(ranked, judgements, 10));
      }
    }

    const index = new LocalIndexProvider(prisma);
    const depth = Number(process.env.BENCH_RESULTS ?? 100);
    const direct = emptyScores();
    const recall: number[] = [];
    for (const query of queries) {
      const judgements = judgementsByQuery.get(query._id) ?? new Map<string, number>();
      const started = process.hrtime.bigint();
      const deep = await index.search({ query: query.text, maxResults: depth });
      direct.latenciesMs.push(Number(process.hrtime.bigint() - started) / 1e6);
      const ranked = corpusIdsOf(deep.map((candidate) => candidate.url));
      direct.ndcgAt10.push(ndcgAtK(ranked, judgements, 10));
      direct.map.push(averagePrecision(ranked, judgements));
      direct.precisionAt10.push(precisionAtK(ranked, judgements, 10));
      recall.push(recallAtK(ranked, judgements, 100));
    }

    console.log(`Queries: ${queries.length}`);
    console.log('| Path | nDCG@10 | MAP | P@10 | p50 latency |');
    console.log('|---|---|---|---|---|');
    for (const [name, scores] of overHttp) {
      console.log(
        `| POST /search, search_depth ${name}, max_results ${httpMaxResults} (MAP over those ${httpMaxResults}) | ${mean(scores.ndcgAt10).toFixed(3)} | ${mean(scores.map).toFixed(3)} | ${mean(scores.precisionAt10).toFixed(3)} | ${percentile(scores.latenciesMs, 0.5).toFixed(1)} ms |`,
      );
    }
    console.log(
      `| LocalIndexProvider directly, top ${depth} (MAP over those ${depth}; Recall@100 ${mean(recall).toFixed(3)}) | ${mean(direct.ndcgAt10).toFixed(3)} | ${mean(direct.map).toFixed(3)} | ${mean(direct.precisionAt10).toFixed(3)} | ${percentile(direct.latenciesMs, 0.5).toFixed(1)} ms |`,
    );
  } finally {
    await gateway?.stop();
    rmSync(workDirectory, { recursive: true, force: true });
    await prisma.$disconnect();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
