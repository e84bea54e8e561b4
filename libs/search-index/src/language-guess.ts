import { tokenize } from '@sift/ranking';
import { detectAll, supportedLanguages, toISO2 } from 'tinyld';

// tinyld knows 62 languages. Left out: Klingon, Volapük, Esperanto and Latin, which almost no page is written in,
// and Berber, which it reported for German and English pages of the trafilatura evaluation set.
const UNLIKELY_ON_THE_WEB = new Set(['tlh', 'vo', 'eo', 'la', 'ber']);
// ISO 639-1 codes: tinyld compares its first pass (grams unique to a language) with `only` in that form.
const WEB_LANGUAGES = supportedLanguages.map(toISO2).filter((language) => !UNLIKELY_ON_THE_WEB.has(language));

// The first characters decide: enough for every language tinyld tells apart, and a page's length costs nothing.
const SAMPLE_CHARS = 2000;
const MINIMUM_WORDS = 5;
const LINE_BREAKS = /\s*\n\s*/g;
// The best language must outscore the runner-up by this factor. On the 447 pages of the trafilatura evaluation set
// that declare a language, their main-content segments as text (bench/language-detection): 418 named as declared,
// 19 otherwise (9 of them German pages declared English), 10 unsure; with a factor of 1.1: 420, 21, 6; 1.5: 414, 19,
// 14; the former 7-language stop-word guess: 378, 26, 43.
const MINIMUM_MARGIN = 1.25;

/**
 * A language (ISO 639-1 code) for text that arrives without one (imports of plain text, pages that declare none),
 * so it is indexed with the right stemmer and stop words and filter_by_language can keep it. Undefined when the
 * text has fewer than five words or the detector (tinyld, 57 languages) is unsure.
 */
export function guessLanguage(text: string): string | undefined {
  const sample = text.slice(0, SAMPLE_CHARS);
  if (tokenize(sample.slice(0, 400)).length < MINIMUM_WORDS) return undefined;
  // tinyld cuts text at punctuation, not at line breaks, and gives a whole piece to a language on one letter
  // sequence unique to it: a line break ends a sentence here, so one odd word costs one line, not the paragraph.
  const [best, runnerUp] = detectAll(sample.replace(LINE_BREAKS, '. '), { only: WEB_LANGUAGES });
  if (!best || (runnerUp && best.accuracy < runnerUp.accuracy * MINIMUM_MARGIN)) return undefined;
  return /^[a-z]{2}$/.test(best.lang) ? best.lang : undefined;
}
