// Research benchmark: our own questions over the Git documentation site (served on loopback and imported into the
// local index with Cranfield's 1400 aerodynamics abstracts as distractors), each answered by POST /research and
// polled with GET /research/{id} on Sift started as `npm start` starts it, with no LLM (extractive reports).
// Figures per model and per half of the question set (dev / held-out): source recall (the pages that answer a
// question among the task's sources), citation grounding (each cited sentence found in its source's stored text,
// with @sift/research's isGroundedIn), citations within the source list, and time from POST to completed.
// Each of three ways of ranking, with the stack started for it: lexical, hybrid (the embedding model's nearest pages
// fused with the words' ranking) and reranked (hybrid, and the reranker choosing the sentences quoted); the last two
// only when a model is given (../search-quality/bench-models.ts: BENCH_EMBEDDINGS_*, BENCH_RERANK_*, or
// BENCH_LOOPBACK_MODEL=1 for a plumbing check whose figures measure no model).
// Run: node scripts/run-ts.js bench/research/run.ts   (BENCH_RESEARCH_MODELS=mini to run one model,
// BENCH_RESEARCH_QUESTIONS=1,4,9 to ask only those questions)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrismaClient } from '@sift/persistence';
import { isGroundedIn } from '@sift/research';
import { PageRepository } from '@sift/pages';
import { startGitDocsSite } from '@sift/testing';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the benchmarks share one stack helper; bench projects are not libraries
import { cranfieldImportLines, gitDocsImportLines } from '../search-quality/bench-corpora';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the benchmarks share one stack helper; bench projects are not libraries
import { createBenchKey, dropDatabase, embedThroughAdmin, importThroughAdmin } from '../search-quality/search-stack';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the benchmarks share one stack helper; bench projects are not libraries
import { benchModels, RANKING_MODES, rankingEnvironment, rankingHeading, type BenchModels, type RankingMode } from '../search-quality/bench-models';
import { citedClaimsOf } from './report-citations';
import { researchToCompletion, startSift, type FinishedResearch } from './research-stack';

const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/sift_bench_research';
const researchModels = (process.env.BENCH_RESEARCH_MODELS ?? 'mini,pro').split(',') as Model[];
const taskTimeoutMs = 20 * 60_000;
const targets = { sourceRecall: 0.9, grounding: 1, p50Seconds: { mini: 20, pro: 60 } };

type Model = 'mini' | 'pro';

interface Question {
  id: number;
  split: 'dev' | 'held-out';
  kind: string;
  input: string;
  /** Paths on the site (`/git-stash.html`) of the pages that answer the question. */
  pages: string[];
}

interface QuestionResult {
  question: Question;
  status: FinishedResearch['status'];
  error?: string;
  seconds: number;
  sourcePaths: string[];
  recall: number;
  claims: number;
  groundedClaims: number;
  citations: number;
  citationsInRange: number;
  ungrounded: string[];
}

function readQuestions(): Question[] {
  const questions = (JSON.parse(readFileSync(join(__dirname, 'questions.json'), 'utf8')) as { questions: Question[] }).questions;
  const chosen = (process.env.BENCH_RESEARCH_QUESTIONS ?? '').split(',').filter((id) => id.trim() !== '').map(Number);
  return chosen.length > 0 ? questions.filter((question) => chosen.includes(question.id)) : questions;
}

function pathOnSite(url: string, origin: string): string {
  return url.startsWith(origin) ? new URL(url).pathname : url;
}

function mean(values: number[]): number {
  return values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 0;
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

/** The text a source holds, as the index stores it (imported pages are the operator's, shared with every account). */
async function sourceTextOf(pages: PageRepository, url: string, cache: Map<string, string>): Promise<string> {
  const cached = cache.get(url);
  if (cached !== undefined) return cached;
  const stored = await pages.findByUrl(url);
  const text = stored ? `${stored.page.text}\n${stored.page.markdown}` : '';
  cache.set(url, text);
  return text;
}

async function scoreTask(question: Question, task: FinishedResearch, seconds: number, origin: string, pages: PageRepository, textCache: Map<string, string>): Promise<QuestionResult> {
  const sources = task.sources ?? [];
  const sourcePaths = sources.map((source) => pathOnSite(source.url, origin));
  const found = question.pages.filter((page) => sourcePaths.includes(page));
  const report = typeof task.content === 'string' ? task.content : JSON.stringify(task.content ?? '');
  const claims = citedClaimsOf(report);
  const citationNumbers = claims.flatMap((claim) => claim.sources);
  const ungrounded: string[] = [];
  let groundedClaims = 0;
  for (const claim of claims) {
    const cited = claim.sources.map((number) => sources[number - 1]).filter((source) => source !== undefined);
    const citedTexts = await Promise.all(cited.map((source) => sourceTextOf(pages, source.url, textCache)));
    if (citedTexts.some((text) => isGroundedIn(claim.text, text))) groundedClaims += 1;
    else ungrounded.push(`[${claim.sources.join(',')}] ${claim.text.slice(0, 160)}`);
  }
  return {
    question,
    status: task.status,
    error: task.error,
    seconds,
    sourcePaths,
    recall: task.status === 'completed' ? found.length / question.pages.length : 0,
    claims: claims.length,
    groundedClaims,
    citations: citationNumbers.length,
    citationsInRange: citationNumbers.filter((number) => number >= 1 && number <= sources.length).length,
    ungrounded,
  };
}

function met(condition: boolean): string {
  return condition ? 'met' : 'NOT MET';
}

function summaryRow(label: string, results: QuestionResult[]): string {
  const claims = results.reduce((sum, result) => sum + result.claims, 0);
  const grounded = results.reduce((sum, result) => sum + result.groundedClaims, 0);
  const citations = results.reduce((sum, result) => sum + result.citations, 0);
  const inRange = results.reduce((sum, result) => sum + result.citationsInRange, 0);
  const completed = results.filter((result) => result.status === 'completed').length;
  const seconds = results.map((result) => result.seconds);
  return (
    `| ${label} | ${completed}/${results.length} | ${mean(results.map((result) => result.recall)).toFixed(3)} | ` +
    `${claims ? ((100 * grounded) / claims).toFixed(1) : '–'}% (${grounded}/${claims}) | ${citations ? ((100 * inRange) / citations).toFixed(1) : '–'}% (${inRange}/${citations}) | ` +
    `${percentile(seconds, 0.5).toFixed(1)} s | ${percentile(seconds, 0.9).toFixed(1)} s |`
  );
}

function printModel(model: Model, results: QuestionResult[], targetsChecked: boolean): void {
  console.log(`\n## model ${model}\n`);
  console.log('| Questions | Completed | Source recall | Cited sentences grounded | Citations within the source list | p50 time | p90 time |');
  console.log('|---|---|---|---|---|---|---|');
  for (const split of ['dev', 'held-out'] as const) console.log(summaryRow(split, results.filter((result) => result.question.split === split)));
  console.log(summaryRow('all', results));
  const recall = mean(results.map((result) => result.recall));
  const claims = results.reduce((sum, result) => sum + result.claims, 0);
  const grounded = results.reduce((sum, result) => sum + result.groundedClaims, 0);
  const p50 = percentile(results.map((result) => result.seconds), 0.5);
  if (targetsChecked) {
    console.log(`\nsource recall ${recall.toFixed(3)} ≥ ${targets.sourceRecall}: ${met(recall >= targets.sourceRecall)}`);
    console.log(`grounding ${claims ? ((100 * grounded) / claims).toFixed(1) : '–'}% = 100%: ${met(claims > 0 && grounded === claims)}`);
    console.log(`p50 ${p50.toFixed(1)} s < ${targets.p50Seconds[model]} s: ${met(p50 < targets.p50Seconds[model])}`);
  } else {
    console.log('\nTargets not checked: the loopback model measures the plumbing, not a model.');
  }
  console.log('\nPer question (misses and ungrounded claims, for the failure analysis):');
  for (const result of results) {
    const missing = result.question.pages.filter((page) => !result.sourcePaths.includes(page));
    const problems = [
      result.status !== 'completed' ? `status ${result.status}: ${result.error ?? ''}` : '',
      missing.length ? `missing ${missing.join(' ')}; sources ${result.sourcePaths.join(' ')}` : '',
      ...result.ungrounded.map((claim) => `ungrounded ${claim}`),
    ].filter(Boolean);
    console.log(`  #${result.question.id} ${result.question.split} ${result.seconds.toFixed(1)} s recall ${result.recall.toFixed(2)} claims ${result.groundedClaims}/${result.claims}${problems.length ? `\n    ${problems.join('\n    ')}` : ''}`);
  }
}

interface BenchWorld {
  origin: string;
  questions: Question[];
  pages: PageRepository;
  textCache: Map<string, string>;
}

/** Every question at every model through a stack started for one way of ranking. */
async function measureRanking(mode: RankingMode, environment: Record<string, string>, models: BenchModels | null, world: BenchWorld): Promise<void> {
  // Started after the import: the index's corpus statistics are read once per process.
  const sift = await startSift(databaseUrl, { RATE_LIMIT_PROD_PER_MINUTE: '1000000', RATE_LIMIT_DEV_PER_MINUTE: '1000000', ...environment });
  try {
    const apiKey = await createBenchKey(databaseUrl);
    // One warm-up task, so the first measured one does not pay for lazy starts.
    await researchToCompletion(sift.baseUrl, apiKey, { input: 'What does git status show?', model: 'mini' }, taskTimeoutMs);
    for (const model of researchModels) {
      const results: QuestionResult[] = [];
      for (const question of world.questions) {
        const { task, seconds } = await researchToCompletion(sift.baseUrl, apiKey, { input: question.input, model }, taskTimeoutMs);
        results.push(await scoreTask(question, task, seconds, world.origin, world.pages, world.textCache));
      }
      printModel(model, results, mode === 'lexical' || models?.kind !== 'loopback');
    }
  } finally {
    await sift.stop();
  }
}

async function main(): Promise<void> {
  console.log(`load average at start: ${loadavg().map((value) => value.toFixed(2)).join(' ')}`);
  const questions = readQuestions();
  await dropDatabase(databaseUrl);
  const site = await startGitDocsSite();
  const workDirectory = mkdtempSync(join(tmpdir(), 'sift-bench-research-'));
  const prisma = createPrismaClient(databaseUrl, 2);
  const models = await benchModels();
  try {
    const importFile = join(workDirectory, 'corpus.jsonl');
    writeFileSync(importFile, [...gitDocsImportLines(site.origin), ...cranfieldImportLines()].join('\n'));
    const imported = await importThroughAdmin(databaseUrl, importFile);
    console.log(`admin index import: imported ${imported.imported}, skipped ${imported.skipped} in ${imported.seconds.toFixed(1)} s`);
    const world: BenchWorld = { origin: site.origin, questions, pages: new PageRepository(prisma), textCache: new Map() };
    for (const mode of RANKING_MODES) {
      console.log(`\n${rankingHeading(mode, models)}`);
      const environment = rankingEnvironment(mode, models);
      if (!environment) continue;
      if (mode === 'hybrid' && models?.embeddings) {
        const embedded = await embedThroughAdmin(databaseUrl, models.embeddings);
        console.log(`\nadmin index embed: ${embedded.embedded} chunks in ${embedded.seconds.toFixed(1)} s`);
      }
      await measureRanking(mode, environment, models, world);
    }
  } finally {
    await models?.close();
    await Promise.allSettled([site.close(), prisma.$disconnect()]);
    rmSync(workDirectory, { recursive: true, force: true });
    console.log(`\nload average at end: ${loadavg().map((value) => value.toFixed(2)).join(' ')}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
