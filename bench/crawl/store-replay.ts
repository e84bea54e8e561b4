// What storing a page costs Postgres: the Git documentation site's pages, extracted once, saved through
// PageRepository.save one after another into a database of their own (dropped and created each run, so no earlier
// run's rows or garbage are in it), first as new pages (STORE_ROUNDS rounds, each under its own path so every save
// is a first store), then once more unchanged (the refresh path). Preparation for the index runs before the timing,
// so the figures are Postgres's CPU (its backend, from /proc) and the wall time of the saves.
// Run: node scripts/run-ts.js bench/crawl/store-replay.ts
// Env: STORE_BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/sift_bench_store), STORE_ROUNDS (3),
// STORE_BENCH_SETUP_SQL: SQL run after the migrations, to measure a schema change against the current one (A/B).
import { readdirSync, readFileSync } from 'node:fs';
import { extractHtml, indexedPageOf, type IndexedPage, type WebPage } from '@sift/content-extraction';
import { createPrismaClient } from '@sift/persistence';
import { PageRepository } from '@sift/pages';
import { GIT_DOCS_SITE_ROOT } from '@sift/testing';
import { cpuMs, databaseBackendPids } from '../search-latency/proc-cpu';
import { recreateBenchDatabase } from './bench-stack';

const DATABASE_URL = process.env.STORE_BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/sift_bench_store';
const ROUNDS = Number(process.env.STORE_ROUNDS ?? 3);
const ORIGIN = 'http://127.0.0.1:8080';

function sitePages(): WebPage[] {
  return readdirSync(GIT_DOCS_SITE_ROOT)
    .filter((file) => file.endsWith('.html'))
    .sort()
    .map((file) => {
      const url = `${ORIGIN}/${file}`;
      return { ...extractHtml(readFileSync(`${GIT_DOCS_SITE_ROOT}/${file}`, 'utf8'), { baseUrl: url, format: 'markdown' }), url, finalUrl: url };
    });
}

interface Figures {
  saves: number;
  wallMs: number;
  postgresCpuMs: number;
}

async function timedSaves(pages: PageRepository, batch: WebPage[], backends: number[]): Promise<Figures> {
  const cpuBefore = backends.reduce((sum, pid) => sum + cpuMs(pid), 0);
  const started = process.hrtime.bigint();
  for (const page of batch) await pages.save('operator', page, 'crawl');
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  return { saves: batch.length, wallMs, postgresCpuMs: backends.reduce((sum, pid) => sum + cpuMs(pid), 0) - cpuBefore };
}

function line(label: string, figures: Figures): string {
  return `${label.padEnd(28)} ${figures.saves} saves: Postgres CPU ${(figures.postgresCpuMs / figures.saves).toFixed(2)} ms a page, wall ${(figures.wallMs / figures.saves).toFixed(2)} ms a page`;
}

async function main(): Promise<void> {
  const database = await recreateBenchDatabase(DATABASE_URL, process.env.STORE_BENCH_SETUP_SQL);
  const site = sitePages();
  // Each round stores the site under its own path prefix: every save of a round is a first store.
  const rounds = Array.from({ length: ROUNDS }, (_, round) =>
    site.map((page) => ({ ...page, url: page.url.replace(ORIGIN, `${ORIGIN}/r${round}`), finalUrl: page.url.replace(ORIGIN, `${ORIGIN}/r${round}`) })),
  );
  const prepared = new Map<string, IndexedPage>();
  for (const page of site) prepared.set(page.text, indexedPageOf({ title: page.title.trim(), description: page.description ?? null, markdown: page.markdown || page.text, text: page.text }));
  // One connection, so one backend does all the work and its CPU is the statement's.
  const prisma = createPrismaClient(DATABASE_URL, 1);
  const pages = new PageRepository(prisma, { prepare: async (input) => prepared.get(input.text) ?? indexedPageOf(input) });
  try {
    await pages.save('operator', { ...site[0], url: `${ORIGIN}/warm-up`, finalUrl: `${ORIGIN}/warm-up` }, 'crawl');
    const backends = databaseBackendPids(database);
    if (backends.length !== 1) throw new Error(`expected one backend of ${database}, found ${backends.length}`);
    const first: Figures = { saves: 0, wallMs: 0, postgresCpuMs: 0 };
    for (const round of rounds) {
      const figures = await timedSaves(pages, round, backends);
      first.saves += figures.saves;
      first.wallMs += figures.wallMs;
      first.postgresCpuMs += figures.postgresCpuMs;
    }
    const again = await timedSaves(pages, rounds[0], backends);
    console.log(`${site.length} Git documentation pages, ${ROUNDS} rounds of first stores, then one round stored again unchanged`);
    console.log(line('first store', first));
    console.log(line('stored again unchanged', again));
  } finally {
    await prisma.$disconnect();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
