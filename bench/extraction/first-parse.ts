// What a parsing thread's first pages cost after the pool's warm-up: in a fresh process for each figure, the warm-up
// page is parsed as many times as the pool parses it (WARM_UP_ROUNDS), then a slice of pages is extracted once each in
// turn and four times more; a page's excess is its first extraction's time over its quickest later one, and a slice's
// figure is the sum over its pages. V8 compiles the extractor's code for the shapes the warm-up showed it: a shape met
// first on a caller's page (a character reference, a numbered list) costs that page the recompilation.
// Slices: six Git manual pages, then ScrapingHub's and trafilatura's pages eight at a time (other sites than the Git
// site the simulated web serves). WARM_UP_MODULE=<file.ts> puts another warm-up page (a module exporting
// warmUpPageHtml, e.g. an earlier commit's, from `git show <commit>:libs/task-pool/src/content-parsing/warm-up-page.ts`)
// beside the pool's, alternating, in the same run. FIRST_PARSE_RUNS (3): processes per slice and page.
// Run: node scripts/run-ts.js bench/extraction/first-parse.ts
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { extractPage, indexedPageOf } from '@sift/content-extraction';
import { benchDataDirectory } from '@sift/testing';

const WARM_UP_ROUNDS = 5;
const POOL_WARM_UP = path.resolve(__dirname, '..', '..', 'libs', 'task-pool', 'src', 'content-parsing', 'warm-up-page.ts');
const RUNS = Number(process.env.FIRST_PARSE_RUNS ?? 3);
const EXTRACTION = { includeImages: true, format: 'markdown' } as const;

interface Slice {
  name: string;
  files: string[];
}

function slices(): Slice[] {
  const data = benchDataDirectory();
  const git = path.join(data, 'git-htmldocs-site', 'site');
  const eightAtATime = (name: string, folder: string): Slice[] => {
    const files = readdirSync(folder).sort().map((file) => path.join(folder, file));
    return [0, 8, 16, 24, 32].map((from) => ({ name: `${name} ${from + 1}–${from + 8}`, files: files.slice(from, from + 8) }));
  };
  return [
    { name: 'Git manual pages', files: ['git-format-patch.html', 'git-svn.html', 'technical/api-trace2.html', 'git-blame.html', 'git-log.html', 'gitglossary.html'].map((file) => path.join(git, file)) },
    ...eightAtATime('ScrapingHub', path.join(data, 'scrapinghub-aeb', 'dev', 'html')),
    ...eightAtATime('trafilatura', path.join(data, 'trafilatura-eval', 'dev', 'html')),
  ];
}

const html = (file: string): string => (file.endsWith('.gz') ? gunzipSync(readFileSync(file)).toString('utf8') : readFileSync(file, 'utf8'));

/** In the child: the warm-up, then the slice's first and quickest later extractions; prints the excess in ms. */
function measureInChild(warmUpModule: string, files: string[]): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the warm-up page to measure is chosen at run time
  const { warmUpPageHtml } = require(warmUpModule) as { warmUpPageHtml: () => string };
  const warmUp = warmUpPageHtml();
  for (let round = 0; round < WARM_UP_ROUNDS; round += 1) {
    const { page } = extractPage(warmUp, { baseUrl: 'https://warm-up.invalid/', ...EXTRACTION });
    indexedPageOf({ title: page.title, description: page.description ?? null, markdown: page.markdown, text: page.text });
  }
  const pages = files.map(html);
  const timed = (page: string): number => {
    const start = performance.now();
    extractPage(page, { baseUrl: 'https://example.test/a/page.html', ...EXTRACTION });
    return performance.now() - start;
  };
  const first = pages.map(timed);
  const quickest = pages.map(() => Number.POSITIVE_INFINITY);
  for (let round = 0; round < 4; round += 1) pages.forEach((page, index) => (quickest[index] = Math.min(quickest[index], timed(page))));
  console.log(JSON.stringify(first.reduce((sum, ms, index) => sum + ms - quickest[index], 0)));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function main(): void {
  const [, , role, warmUpModule, ...files] = process.argv;
  if (role === '--child') return measureInChild(warmUpModule, files);
  const variants = [{ name: "the pool's warm-up page", module: POOL_WARM_UP }];
  if (process.env.WARM_UP_MODULE) variants.push({ name: path.basename(process.env.WARM_UP_MODULE), module: path.resolve(process.env.WARM_UP_MODULE) });
  console.log(`first-parse excess (ms, a slice's sum; median of ${RUNS} processes each, alternating), after ${WARM_UP_ROUNDS} parses of the warm-up page`);
  const totals = variants.map(() => 0);
  for (const slice of slices()) {
    const excess = variants.map((): number[] => []);
    for (let run = 0; run < RUNS; run += 1) {
      variants.forEach((variant, index) => {
        const output = execFileSync(process.execPath, ['--max-semi-space-size=64', path.resolve(__dirname, '..', '..', 'scripts', 'run-ts.js'), __filename, '--child', variant.module, ...slice.files], { encoding: 'utf8' });
        excess[index].push(Number(output.trim().split('\n').pop()));
      });
    }
    const medians = excess.map(median);
    medians.forEach((value, index) => (totals[index] += value));
    console.log(`${slice.name.padEnd(22)} ${variants.map((variant, index) => `${variant.name}: ${medians[index].toFixed(0)} (${excess[index].map((ms) => ms.toFixed(0)).join(', ')})`).join(' | ')}`);
  }
  console.log(`all slices              ${variants.map((variant, index) => `${variant.name}: ${totals[index].toFixed(0)}`).join(' | ')}`);
}

main();
