// Lists, per page of the trafilatura evaluation set, the "with" segments Sift missed and the "without" segments
// it kept, worst pages first, to group extraction failures by cause before changing the extractor.
// Run: node scripts/run-ts.js bench/extraction/trafilatura-failures.ts [pages to show, default 40]
import { extractHtml } from '@sift/content-extraction';
import { loadTrafilatura } from './datasets';

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();
const shorten = (text: string) => (text.length > 110 ? `${text.slice(0, 107)}...` : text);

function main(): void {
  const shown = Number(process.argv[2] ?? 40);
  const failures = loadTrafilatura().map((page) => {
    const extracted = normalise(extractHtml(page.html, { baseUrl: page.url, includeImages: false, format: 'text' }).text);
    return {
      url: decodeURIComponent(page.url.replace('https://bench.invalid/', '')),
      extractedChars: extracted.length,
      missed: page.with.filter((segment) => !extracted.includes(normalise(segment))),
      kept: page.without.filter((segment) => extracted.includes(normalise(segment))),
      wanted: page.with.length,
    };
  });
  const failing = failures.filter((page) => page.missed.length + page.kept.length > 0);
  failing.sort((a, b) => b.missed.length + b.kept.length - (a.missed.length + a.kept.length));
  const empty = failures.filter((page) => page.extractedChars === 0).length;
  const allMissed = failures.filter((page) => page.wanted > 0 && page.missed.length === page.wanted).length;
  console.log(`${failing.length} of ${failures.length} pages with errors; ${empty} empty extractions; ${allMissed} pages missing every wanted segment`);
  console.log(`missed ${failures.reduce((sum, page) => sum + page.missed.length, 0)}, kept ${failures.reduce((sum, page) => sum + page.kept.length, 0)}`);
  for (const page of failing.slice(0, shown)) {
    console.log(`\n${page.url}  (${page.extractedChars} chars, missed ${page.missed.length}/${page.wanted}, kept ${page.kept.length})`);
    for (const segment of page.missed) console.log(`  - missed: ${shorten(segment)}`);
    for (const segment of page.kept) console.log(`  + kept:   ${shorten(segment)}`);
  }
}

main();
