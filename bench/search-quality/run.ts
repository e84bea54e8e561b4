// Search quality measured as a user meets it, on a mixed index: Cranfield's 1400 aerodynamics abstracts imported
// with `admin index import` into one database together with the two extraction corpora (586 news, blog and
// multilingual pages) and the Git documentation site (272 pages); the gateway runs as its own process and every
// query goes through POST /search, at basic and advanced depth, with and without include_domains.
// 1. Cranfield's 225 queries: nDCG@10, MAP (over the results returned) and P@10, at max_results 10 and 20; and how
//    often the filtered search returns the same top 10 as the unfiltered one.
// 2. Our own natural-language questions over the Git documentation site (git-docs-questions.json, dev and
//    held-out halves): success@3 (an answering page in the top 3) and MRR over the top 10. Misses are printed for
//    the dev half only, the half ranking changes may be tuned on.
// 3. Each of these three ways, each with a gateway of its own: lexical (words alone), hybrid (fused with the nearest
//    pages of an embedding model) and reranked (hybrid, then the reranker); the last two only when a model is given
//    (bench-models.ts: BENCH_EMBEDDINGS_*, BENCH_RERANK_*, or BENCH_LOOPBACK_MODEL=1 for a plumbing check whose figures
//    measure no model). The index's chunks are embedded once with `admin index embed` before the hybrid way.
// Run: node scripts/run-ts.js bench/search-quality/run.ts   (BENCH_REUSE_INDEX=1 keeps an imported index)
// Metric: ../shared/bench-data/README.md.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CRANFIELD_DOMAIN, CRANFIELD_URL_PREFIX, cranfieldImportLines, cranfieldJudgements, extractionCorporaImportLines, gitDocsImportLines, readCranfieldJsonl } from './bench-corpora';
import { Client } from 'pg';
import { answersOf, describeAnswers, floorUrls, POSTGRES_FLOORS } from './postgres-floors';
import { averagePrecision, mean, ndcgAtK, precisionAtK, reciprocalRank } from './ranking-metrics';
import { benchModels, RANKING_MODES, rankingEnvironment, rankingHeading, type BenchModels, type RankingMode } from './bench-models';
import { createBenchKey, dropDatabase, embedThroughAdmin, importThroughAdmin, searchOverHttp, startGateway, type GatewayProcess } from './search-stack';

const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/sift_bench';
const reuseIndex = process.env.BENCH_REUSE_INDEX === '1';
const gitDocsOrigin = 'https://git-docs.example';
const gitDocsDomain = 'git-docs.example';
const depths = ['basic', 'advanced'] as const;
/**
 * Measured at max_results 10 and printed, without a target: ultra-fast keeps the candidates' pre-ranking (no exact
 * BM25F re-scoring), and its rows show what that costs.
 */
const informationalDepths = ['ultra-fast'] as const;
const targets = { ndcgAt10: 0.4, successAt3: 0.85 };

type Depth = (typeof depths)[number] | (typeof informationalDepths)[number];

interface Question {
  id: number;
  split: 'dev' | 'held-out';
  input: string;
  /** Paths on the site (`/git-show.html`); any of them answers the question. */
  pages: string[];
}

interface SearchPath {
  depth: Depth;
  includeDomains: string[] | null;
  maxResults: number;
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

function pathLabel(path: SearchPath): string {
  return `${path.depth}, ${path.includeDomains ? `include_domains ${path.includeDomains.join(',')}` : 'no filter'}, max_results ${path.maxResults}`;
}

async function timedSearch(gateway: GatewayProcess, apiKey: string, query: string, path: SearchPath): Promise<{ urls: string[]; ms: number }> {
  const started = process.hrtime.bigint();
  const hits = await searchOverHttp(gateway, apiKey, {
    query,
    search_depth: path.depth,
    max_results: path.maxResults,
    ...(path.includeDomains ? { include_domains: path.includeDomains } : {}),
  });
  return { urls: hits.map((hit) => hit.url), ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

/** nDCG@10, average precision and P@10 of one ranked list of URLs against a Cranfield query's judgements. */
function cranfieldScores(urls: readonly string[], judgements: Map<string, number>): { ndcg: number; averagePrecision: number; precision: number } {
  // Pages of other collections keep their place (they are not relevant): the ranking a user sees.
  const shown = urls.map((url) => (url.startsWith(CRANFIELD_URL_PREFIX) ? url.slice(CRANFIELD_URL_PREFIX.length) : url));
  return { ndcg: ndcgAtK(shown, judgements, 10), averagePrecision: averagePrecision(shown, judgements), precision: precisionAtK(shown, judgements, 10) };
}

async function measureCranfield(gateway: GatewayProcess, apiKey: string): Promise<{ path: SearchPath; ndcg: number }[]> {
  const queries = readCranfieldJsonl<{ _id: string; text: string }>('queries.jsonl');
  const judgementsByQuery = cranfieldJudgements();
  const rows: { path: SearchPath; ndcg: number }[] = [];
  console.log(`\n## Cranfield (${queries.length} queries) on the mixed index\n`);
  console.log('| Path | nDCG@10 | MAP (over the results) | P@10 | same top 10 as unfiltered | p50 |');
  console.log('|---|---|---|---|---|---|');
  for (const maxResults of [10, 20]) {
    for (const depth of maxResults === 10 ? [...depths, ...informationalDepths] : depths) {
      const unfilteredTop = new Map<string, string[]>();
      for (const includeDomains of [null, [CRANFIELD_DOMAIN]]) {
        const path: SearchPath = { depth, includeDomains, maxResults };
        const ndcg: number[] = [];
        const map: number[] = [];
        const precision: number[] = [];
        const latencies: number[] = [];
        let sameTop = 0;
        for (const query of queries) {
          const judgements = judgementsByQuery.get(query._id) ?? new Map<string, number>();
          const { urls, ms } = await timedSearch(gateway, apiKey, query.text, path);
          latencies.push(ms);
          const scores = cranfieldScores(urls, judgements);
          ndcg.push(scores.ndcg);
          map.push(scores.averagePrecision);
          precision.push(scores.precision);
          // The Cranfield pages of the unfiltered top 10 against as many of the filtered list: the same order?
          const cranfieldRanked = urls.filter((url) => url.startsWith(CRANFIELD_URL_PREFIX));
          if (includeDomains === null) unfilteredTop.set(query._id, urls.slice(0, 10).filter((url) => url.startsWith(CRANFIELD_URL_PREFIX)));
          else {
            const unfiltered = unfilteredTop.get(query._id) ?? [];
            if (unfiltered.join(' ') === cranfieldRanked.slice(0, unfiltered.length).join(' ')) sameTop += 1;
          }
        }
        if (isTargetDepth(depth)) rows.push({ path, ndcg: mean(ndcg) });
        const same = includeDomains === null ? '–' : `${sameTop}/${queries.length}`;
        console.log(
          `| ${pathLabel(path)} | ${mean(ndcg).toFixed(3)} | ${mean(map).toFixed(3)} | ${mean(precision).toFixed(3)} | ${same} | ${percentile(latencies, 0.5).toFixed(1)} ms |`,
        );
      }
    }
  }
  return rows;
}

/**
 * The search latency bench's floors (plain Postgres full-text search, one statement, no service) scored the same way
 * on the same index: what the speed comparison's floors give the caller. Printed, without a target.
 */
async function measureFloors(): Promise<void> {
  const queries = readCranfieldJsonl<{ _id: string; text: string }>('queries.jsonl');
  const judgementsByQuery = cranfieldJudgements();
  console.log(`\n## Cranfield on the same index through the search latency bench's Postgres floors (no service, max 10)\n`);
  console.log('| Floor | nDCG@10 | MAP (over the results) | P@10 |');
  console.log('|---|---|---|---|');
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const answered: string[] = [];
  try {
    for (const floor of POSTGRES_FLOORS) {
      const ndcg: number[] = [];
      const map: number[] = [];
      const precision: number[] = [];
      const counts: number[] = [];
      for (const query of queries) {
        const judgements = judgementsByQuery.get(query._id) ?? new Map<string, number>();
        const urls = await floorUrls(client, floor, query.text);
        counts.push(urls.length);
        const scores = cranfieldScores(urls, judgements);
        ndcg.push(scores.ndcg);
        map.push(scores.averagePrecision);
        precision.push(scores.precision);
      }
      console.log(`| ${floor.name} | ${mean(ndcg).toFixed(3)} | ${mean(map).toFixed(3)} | ${mean(precision).toFixed(3)} |`);
      answered.push(describeAnswers(floor.name, answersOf(counts)));
    }
  } finally {
    await client.end();
  }
  for (const line of answered) console.log(line);
}

/** The depths the targets hold for (ultra-fast is measured and printed only). */
function isTargetDepth(depth: Depth): boolean {
  return (depths as readonly Depth[]).includes(depth);
}

function questionsOf(): Question[] {
  return (JSON.parse(readFileSync(join(__dirname, 'git-docs-questions.json'), 'utf8')) as { questions: Question[] }).questions;
}

async function measureQuestions(gateway: GatewayProcess, apiKey: string): Promise<{ path: SearchPath; successAt3: number }[]> {
  const questions = questionsOf();
  const rows: { path: SearchPath; successAt3: number }[] = [];
  const misses: string[] = [];
  console.log(`\n## Git documentation questions (${questions.length}: dev ${questions.filter((question) => question.split === 'dev').length}) on the mixed index\n`);
  console.log('| Path | success@3 dev | success@3 held-out | success@3 all | MRR@10 all | p50 |');
  console.log('|---|---|---|---|---|---|');
  for (const depth of [...depths, ...informationalDepths]) {
    for (const includeDomains of [null, [gitDocsDomain]]) {
      const path: SearchPath = { depth, includeDomains, maxResults: 10 };
      const success = { dev: [] as number[], 'held-out': [] as number[] };
      const reciprocal: number[] = [];
      const latencies: number[] = [];
      for (const question of questions) {
        const { urls, ms } = await timedSearch(gateway, apiKey, question.input, path);
        latencies.push(ms);
        const paths = urls.map((url) => (url.startsWith(gitDocsOrigin) ? new URL(url).pathname : url));
        const answers = new Map(question.pages.map((page) => [page, 1]));
        const hit = paths.slice(0, 3).some((page) => answers.has(page)) ? 1 : 0;
        success[question.split].push(hit);
        reciprocal.push(reciprocalRank(paths, answers));
        if (!hit && question.split === 'dev' && isTargetDepth(depth)) misses.push(`  ${pathLabel(path)} #${question.id} "${question.input}" wants ${question.pages.join(' ')}; got ${paths.slice(0, 3).join(' ')}`);
      }
      const all = [...success.dev, ...success['held-out']];
      if (isTargetDepth(depth)) rows.push({ path, successAt3: mean(all) });
      console.log(
        `| ${pathLabel(path)} | ${mean(success.dev).toFixed(3)} | ${mean(success['held-out']).toFixed(3)} | ${mean(all).toFixed(3)} | ${mean(reciprocal).toFixed(3)} | ${percentile(latencies, 0.5).toFixed(1)} ms |`,
      );
    }
  }
  if (misses.length) console.log(`\nDev misses (top 3 shown):\n${misses.join('\n')}`);
  return rows;
}

function met(condition: boolean): string {
  return condition ? 'met' : 'NOT MET';
}

function printTargets(cranfield: { path: SearchPath; ndcg: number }[], questions: { path: SearchPath; successAt3: number }[]): void {
  console.log('\n## Targets\n');
  for (const row of cranfield) console.log(`nDCG@10 ${row.ndcg.toFixed(3)} ≥ ${targets.ndcgAt10} (${pathLabel(row.path)}): ${met(row.ndcg >= targets.ndcgAt10)}`);
  for (const row of [...cranfield, ...questions]) {
    if (row.path.depth !== 'advanced') continue;
    const basic = [...cranfield, ...questions].find(
      (other) => other.path.depth === 'basic' && other.path.maxResults === row.path.maxResults && String(other.path.includeDomains) === String(row.path.includeDomains) && ('ndcg' in other) === ('ndcg' in row),
    );
    const [advancedScore, basicScore] = 'ndcg' in row ? [row.ndcg, (basic as { ndcg: number }).ndcg] : [row.successAt3, (basic as { successAt3: number }).successAt3];
    console.log(`advanced ${advancedScore.toFixed(3)} ≥ basic ${basicScore.toFixed(3)} (${'ndcg' in row ? 'Cranfield' : 'questions'}, ${pathLabel(row.path)}): ${met(advancedScore >= basicScore)}`);
  }
  for (const row of questions) console.log(`success@3 ${row.successAt3.toFixed(3)} ≥ ${targets.successAt3} (${pathLabel(row.path)}): ${met(row.successAt3 >= targets.successAt3)}`);
}

/** The tables of one way of ranking, through a gateway started with its models; targets only for a real model's. */
async function measureRanking(mode: RankingMode, environment: Record<string, string>, models: BenchModels | null, apiKey: string): Promise<void> {
  // Started after the import (and the embedding): the index's corpus statistics are read once per process.
  const gateway = await startGateway(databaseUrl, { RATE_LIMIT_PROD_PER_MINUTE: '1000000', ...environment });
  try {
    // One warm-up request per depth, so the first measured query does not pay for the gateway's lazy start.
    for (const depth of depths) await searchOverHttp(gateway, apiKey, { query: 'warm up', search_depth: depth });
    const cranfield = await measureCranfield(gateway, apiKey);
    const questions = await measureQuestions(gateway, apiKey);
    // The floors are plain Postgres full-text search: the same whatever the models.
    if (mode === 'lexical') await measureFloors();
    if (mode !== 'lexical' && models?.kind === 'loopback') console.log('\nTargets not checked: the loopback model measures the plumbing, not a model.');
    else printTargets(cranfield, questions);
  } finally {
    await gateway.stop();
  }
}

async function main(): Promise<void> {
  console.log(`load average at start: ${loadavg().map((value) => value.toFixed(2)).join(' ')}`);
  const workDirectory = mkdtempSync(join(tmpdir(), 'sift-bench-search-'));
  const models = await benchModels();
  try {
    if (!reuseIndex) {
      await dropDatabase(databaseUrl);
      const importFile = join(workDirectory, 'mixed.jsonl');
      writeFileSync(importFile, [...cranfieldImportLines(), ...extractionCorporaImportLines(), ...gitDocsImportLines(gitDocsOrigin)].join('\n'));
      const imported = await importThroughAdmin(databaseUrl, importFile);
      console.log(`admin index import: imported ${imported.imported}, skipped ${imported.skipped} in ${imported.seconds.toFixed(1)} s`);
    }
    const apiKey = await createBenchKey(databaseUrl);
    for (const mode of RANKING_MODES) {
      console.log(`\n${rankingHeading(mode, models)}`);
      const environment = rankingEnvironment(mode, models);
      if (!environment) continue;
      if (mode === 'hybrid' && models?.embeddings) {
        const embedded = await embedThroughAdmin(databaseUrl, models.embeddings);
        console.log(`\nadmin index embed: ${embedded.embedded} chunks in ${embedded.seconds.toFixed(1)} s`);
      }
      await measureRanking(mode, environment, models, apiKey);
    }
  } finally {
    await models?.close();
    rmSync(workDirectory, { recursive: true, force: true });
    console.log(`\nload average at end: ${loadavg().map((value) => value.toFixed(2)).join(' ')}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
