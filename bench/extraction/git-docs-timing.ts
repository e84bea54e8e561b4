// Extraction time on the Git HTML documentation site: big single-page manuals (user-manual.html, git-config.html)
// are where a super-linear step in the extractor shows. Reports total CPU time, pages per CPU-second and the
// slowest pages. GIT_DOCS_ROUNDS=n extracts the whole site n times before that and prints each round's CPU per page,
// for the extraction and for preparing the pages for the index (the first round includes compiling; the later ones
// compare code).
// Run: node scripts/run-ts.js bench/extraction/git-docs-timing.ts
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { extractPage, indexedPageOf } from '@sift/content-extraction';

const siteRoot = path.resolve(__dirname, '..', '..', '..', 'shared', 'bench-data', 'git-htmldocs-site', 'site');

function htmlFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return htmlFiles(full);
    return entry.name.endsWith('.html') ? [full] : [];
  });
}

function cpuMilliseconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** CPU ms per page of each of `rounds` extractions of every page, and of preparing each page for the index after. */
function repeatedRounds(files: string[], rounds: number): { extraction: number[]; indexing: number[] } {
  const pages = files.map((file) => ({ html: readFileSync(file, 'utf8'), url: `http://127.0.0.1:8080/${path.relative(siteRoot, file)}` }));
  const extraction: number[] = [];
  const indexing: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const start = process.cpuUsage();
    const extracted = pages.map(({ html, url }) => extractPage(html, { baseUrl: url, includeImages: true, format: 'markdown' }).page);
    extraction.push(cpuMilliseconds(start) / pages.length);
    const indexStart = process.cpuUsage();
    for (const page of extracted) indexedPageOf({ title: page.title, description: page.description ?? null, markdown: page.markdown, text: page.text });
    indexing.push(cpuMilliseconds(indexStart) / pages.length);
  }
  return { extraction, indexing };
}

function main(): void {
  const files = htmlFiles(siteRoot);
  const rounds = Number(process.env.GIT_DOCS_ROUNDS ?? 0);
  if (rounds > 0) {
    const { extraction, indexing } = repeatedRounds(files, rounds);
    console.log(`CPU ms per page, ${rounds} rounds: ${extraction.map((ms) => ms.toFixed(2)).join(' ')}`);
    console.log(`  then its index preparation (indexedPageOf): ${indexing.map((ms) => ms.toFixed(2)).join(' ')}`);
  }
  const timings: { page: string; milliseconds: number; bytes: number }[] = [];
  const before = process.cpuUsage();
  for (const file of files) {
    const html = readFileSync(file, 'utf8');
    const page = path.relative(siteRoot, file);
    const start = process.cpuUsage();
    extractPage(html, { baseUrl: `http://127.0.0.1:8080/${page}`, includeImages: true, format: 'markdown' });
    timings.push({ page, milliseconds: cpuMilliseconds(start), bytes: html.length });
  }
  const totalSeconds = cpuMilliseconds(before) / 1000;
  timings.sort((a, b) => b.milliseconds - a.milliseconds);
  console.log(`Git HTML documentation site (${files.length} pages, extractPage, markdown + links + images)`);
  console.log(`  total ${totalSeconds.toFixed(2)} CPU s, ${(files.length / totalSeconds).toFixed(1)} pages/s/core`);
  for (const { page, milliseconds, bytes } of timings.slice(0, 5)) {
    console.log(`  ${page.padEnd(36)} ${(bytes / 1024).toFixed(0).padStart(5)} KiB  ${milliseconds.toFixed(0).padStart(6)} ms`);
  }
}

main();
