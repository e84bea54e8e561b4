// The language detector of the document store (search-index guessLanguage, through pageLanguageOf with no declared
// language) on the trafilatura evaluation pages that declare one in <html lang>, their main-content segments as
// text; then its cost, and the word segmentation's, per call on a 20,000-character text.
// Run: nice -n 10 node scripts/run-ts.js bench/extraction/language-detection.ts
import { segmentWords, tokenize } from '@sift/ranking';
import { pageLanguageOf } from '@sift/search-index';
import { loadTrafilatura } from './datasets';

const DECLARED_LANGUAGE = /<html[^>]*\slang=["']?([a-z]{2,3})\b/i;

function accuracy(): void {
  let named = 0;
  let otherwise = 0;
  let unsure = 0;
  const confusions = new Map<string, number>();
  for (const page of loadTrafilatura()) {
    const declared = DECLARED_LANGUAGE.exec(page.html)?.[1].toLowerCase();
    if (!declared) continue;
    const guessed = pageLanguageOf(undefined, page.with.join('\n'));
    if (guessed === undefined) unsure++;
    else if (guessed === declared) named++;
    else {
      otherwise++;
      const pair = `${declared}→${guessed}`;
      confusions.set(pair, (confusions.get(pair) ?? 0) + 1);
    }
  }
  const top = [...confusions.entries()].sort((left, right) => right[1] - left[1]).slice(0, 8);
  console.log(`pages declaring a language: ${named + otherwise + unsure}`);
  console.log(`named as declared ${named}, otherwise ${otherwise}, unsure ${unsure}`);
  console.log(`declared→guessed: ${top.map(([pair, count]) => `${pair} ${count}`).join(', ')}`);
}

/** Mean CPU microseconds per call of `run` over `calls` calls, after a warm-up (CPU time: the machine may be shared). */
function microsecondsPerCall(run: () => unknown, calls: number): number {
  for (let call = 0; call < 20; call++) run();
  const before = process.cpuUsage();
  for (let call = 0; call < calls; call++) run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / calls;
}

function speed(): void {
  const english = 'The committee published its annual report on water quality, and the council discussed it this week. ';
  const chinese = '委员会发布了关于水质的年度报告，理事会本周讨论了报告的结论。';
  const text = (sentence: string) => sentence.repeat(Math.ceil(20_000 / sentence.length)).slice(0, 20_000);
  const englishText = text(english);
  // A character outside Latin-1 makes V8 store the string in two bytes per character: the script test then scans it.
  const englishQuotedText = text(english.replace('annual report', '“annual report”'));
  const chineseText = text(chinese);
  const rows: [string, number][] = [
    ['guessLanguage, English 20k chars', microsecondsPerCall(() => pageLanguageOf(undefined, englishText), 500)],
    ['guessLanguage, Chinese 20k chars', microsecondsPerCall(() => pageLanguageOf(undefined, chineseText), 500)],
    ['segmentWords, English 20k chars (no segmenter)', microsecondsPerCall(() => segmentWords(englishText), 2000)],
    ['segmentWords, English 20k chars with “quotes”', microsecondsPerCall(() => segmentWords(englishQuotedText), 2000)],
    ['segmentWords, Chinese 20k chars', microsecondsPerCall(() => segmentWords(chineseText), 100)],
    ['tokenize, English 20k chars', microsecondsPerCall(() => tokenize(englishText), 500)],
    ['segmentWords, English query', microsecondsPerCall(() => segmentWords('how do I undo the last commit'), 100_000)],
  ];
  for (const [name, microseconds] of rows) console.log(`${name.padEnd(48)} ${microseconds.toFixed(1)} µs CPU/call`);
}

accuracy();
speed();
