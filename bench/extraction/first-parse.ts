// What a parsing thread's first pages cost after the pool's warm-up: in a fresh process for each figure, the warm-up
// page is parsed as many times as the pool parses it (WARM_UP_ROUNDS), then a slice of pages is extracted once each in
// turn and four times more; a page's excess is its first extraction's time over its quickest later one, and a slice's
// figure is the sum over its pages. V8 compiles the extractor's code for the shapes the warm-up showed it: a shape met
// first on a caller's page (a character reference, a numbered list) costs that page the recompilation.
// Slices: six Git manual pages, then ScrapingHub's and trafilatura's pages eight at a time, as the extraction
// benchmark reads them (datasets.ts; other sites than the Git site the simulated web serves). WARM_UP_MODULE=<file.ts> puts another warm-up page (a module exporting
// warmUpPageHtml, e.g. an earlier commit's, from `git show <commit>:libs/task-pool/src/content-parsing/warm-up-page.ts`)
// beside the pool's, alternating, in the same run; CHILD_NODE_ARGS="<flags>" puts the pool's page under Node or V8 flags
// there (e.g. --always-sparkplug). FIRST_PARSE_RUNS (3): processes per slice and page.
// Run: node scripts/run-ts.js bench/extraction/first-parse.ts
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { extractPage, indexedPageOf } from '@sift/content-extraction';
import { GIT_DOCS_SITE_ROOT } from '@sift/testing';
import { loadScrapinghub, loadTrafilatura } from './datasets';

const WARM_UP_ROUNDS = 5;
const POOL_WARM_UP = path.resolve(__dirname, '..', '..', 'libs', 'task-pool', 'src', 'content-parsing', 'warm-up-page.ts');
const RUNS = Number(process.env.FIRST_PARSE_RUNS ?? 3);
const EXTRACTION = { includeImages: true, format: 'markdown' } as const;
const GIT_PAGES = ['git-format-patch.html', 'git-svn.html', 'technical/api-trace2.html', 'git-blame.html', 'git-log.html', 'gitglossary.html'];

type PageSet = 'git' | 'scrapinghub' | 'trafilatura';

/** A set's pages `from` to `from + count` (all six Git pages), with the address each is extracted under. */
function pagesOf(set: PageSet, from: number, count: number): { html: string; url: string }[] {
  if (set === 'git') return GIT_PAGES.map((page) => ({ html: readFileSync(path.join(GIT_DOCS_SITE_ROOT, page), 'utf8'), url: `http://127.0.0.1:8080/${page}` }));
  return (set === 'scrapinghub' ? loadScrapinghub() : loadTrafilatura()).slice(from, from + count);
}

const SLICES: { name: string; set: PageSet; from: number; count: number }[] = [
  { name: 'Git manual pages', set: 'git', from: 0, count: GIT_PAGES.length },
  ...(['scrapinghub', 'trafilatura'] as const).flatMap((set) =>
    [0, 8, 16, 24, 32].map((from) => ({ name: `${set === 'scrapinghub' ? 'ScrapingHub' : 'trafilatura'} ${from + 1}–${from + 8}`, set, from, count: 8 })),
  ),
];

/** In the child: the warm-up, then the slice's first and quickest later extractions; prints the excess in ms. */
function measureInChild(warmUpModule: string, set: PageSet, from: number, count: number): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the warm-up page to measure is chosen at run time
  const { warmUpPageHtml } = require(warmUpModule) as { warmUpPageHtml: () => string };
  const warmUp = warmUpPageHtml();
  for (let round = 0; round < WARM_UP_ROUNDS; round += 1) {
    const { page } = extractPage(warmUp, { baseUrl: 'https://warm-up.invalid/', ...EXTRACTION });
    indexedPageOf({ title: page.title, description: page.description ?? null, markdown: page.markdown, text: page.text });
  }
  const pages = pagesOf(set, from, count);
  const timed = ({ html, url }: { html: string; url: string }): number => {
    const start = performance.now();
    extractPage(html, { baseUrl: url, ...EXTRACTION });
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
  const [, , role, warmUpModule, set, from, count] = process.argv;
  if (role === '--child') return measureInChild(warmUpModule, set as PageSet, Number(from), Number(count));
  const variants: { name: string; module: string; args: string[] }[] = [{ name: "the pool's warm-up page", module: POOL_WARM_UP, args: [] }];
  if (process.env.WARM_UP_MODULE) variants.push({ name: path.basename(process.env.WARM_UP_MODULE), module: path.resolve(process.env.WARM_UP_MODULE), args: [] });
  if (process.env.CHILD_NODE_ARGS) variants.push({ name: process.env.CHILD_NODE_ARGS, module: POOL_WARM_UP, args: process.env.CHILD_NODE_ARGS.split(' ').filter(Boolean) });
  console.log(`first-parse excess (ms, a slice's sum; median of ${RUNS} processes each, alternating), after ${WARM_UP_ROUNDS} parses of the warm-up page`);
  const totals = variants.map(() => 0);
  for (const slice of SLICES) {
    const excess = variants.map((): number[] => []);
    for (let run = 0; run < RUNS; run += 1) {
      variants.forEach((variant, index) => {
        const output = execFileSync(process.execPath, ['--max-semi-space-size=64', ...variant.args, path.resolve(__dirname, '..', '..', 'scripts', 'run-ts.js'), __filename, '--child', variant.module, slice.set, String(slice.from), String(slice.count)], { encoding: 'utf8' });
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
