import { tokenize } from '@sift/ranking';
import * as stopwordLists from 'stopword';
import { detectAll, supportedLanguages, toISO2, toISO3 } from 'tinyld';

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
 * A language's function words decide when they are at least this share of the sample's words and it has this many
 * times as many of its own as any other language has of its own. Running text of a language is 30–50 % its function
 * words (English prose: "the", "of", "a", "is" alone make a fifth); a technical page of English with few of them is
 * still far above the 2–5 % another language's list catches of it ("in", "an", "die").
 */
const FUNCTION_WORD_SHARE = 0.2;
const FUNCTION_WORD_FACTOR = 2;

/** The characters whose words are counted against the function-word lists (segmenting CJK text costs ~0.5 µs a character). */
const FUNCTION_WORD_SAMPLE_CHARS = 1000;

let functionWordIndex: Map<string, string[]> | undefined;

/** Each function word of stopword's lists (ISO 639-3 keys) with the web languages that list it, built on first use. */
function languagesByFunctionWord(): Map<string, string[]> {
  if (functionWordIndex) return functionWordIndex;
  const index = new Map<string, string[]>();
  for (const language of WEB_LANGUAGES) {
    const list = (stopwordLists as unknown as Record<string, unknown>)[toISO3(language)];
    if (!Array.isArray(list)) continue;
    for (const word of new Set(list as string[])) index.set(word, [...(index.get(word) ?? []), language]);
  }
  return (functionWordIndex = index);
}

/**
 * tinyld's letter sequences mistake technical text for another language: recombined aerodynamics abstracts ("mach
 * number 3.7", "magnetoacoustic pulses") came out Estonian, Spanish or German for 49 of 10,000 English pages, and
 * 25 more were unsure; a page filed under the wrong language is stemmed wrongly for every search. Function words do
 * not depend on the subject: the language with the most function words in the text, if they are a fair share of it
 * (FUNCTION_WORD_SHARE) and it has FUNCTION_WORD_FACTOR times as many of its own as any other language has of its
 * own, is the text's language, whatever tinyld says. Related languages share function words ("de", "la", "en"):
 * then none stands out and tinyld's letter sequences decide.
 */
function byFunctionWords(sample: string): string | undefined {
  const words = tokenize(sample.slice(0, FUNCTION_WORD_SAMPLE_CHARS));
  const index = languagesByFunctionWord();
  // One pass: each language's function words in the text.
  const counts = new Map<string, number>();
  const listed = words.map((word) => index.get(word) ?? []);
  for (const languages of listed) for (const language of languages) counts.set(language, (counts.get(language) ?? 0) + 1);
  let first: string | undefined;
  let firstCount = 0;
  for (const [language, count] of counts) if (count > firstCount) [first, firstCount] = [language, count];
  if (first === undefined || firstCount < words.length * FUNCTION_WORD_SHARE) return undefined;
  // Against each other language, only the function words one of the two has count (the lists overlap, and not only
  // between related languages: stopword's Finnish list holds "the", "of", "a" and "on"). Of first's words, those the
  // other language lists too:
  const shared = new Map<string, number>();
  for (const languages of listed) {
    if (!languages.includes(first)) continue;
    for (const language of languages) if (language !== first) shared.set(language, (shared.get(language) ?? 0) + 1);
  }
  for (const [language, count] of counts) {
    if (language === first) continue;
    const own = firstCount - (shared.get(language) ?? 0);
    const theirs = count - (shared.get(language) ?? 0);
    if (own === 0 || own < theirs * FUNCTION_WORD_FACTOR) return undefined;
  }
  return first;
}

/**
 * A language (ISO 639-1 code) for text that arrives without one (imports of plain text, pages that declare none),
 * so it is indexed with the right stemmer and stop words and filter_by_language can keep it. Undefined when the
 * text has fewer than five words, or when neither its function words (stopword's lists: byFunctionWords, first)
 * nor the letter-sequence detector (tinyld, 57 languages) settles it.
 */
export function guessLanguage(text: string): string | undefined {
  const sample = text.slice(0, SAMPLE_CHARS);
  if (tokenize(sample.slice(0, 400)).length < MINIMUM_WORDS) return undefined;
  // tinyld cuts text at punctuation, not at line breaks, and gives a whole piece to a language on one letter
  // sequence unique to it: a line break ends a sentence here, so one odd word costs one line, not the paragraph.
  const byWords = byFunctionWords(sample);
  if (byWords) return /^[a-z]{2}$/.test(byWords) ? byWords : undefined;
  const [best, runnerUp] = detectAll(sample.replace(LINE_BREAKS, '. '), { only: WEB_LANGUAGES });
  if (!best) return undefined;
  if (runnerUp && best.accuracy < runnerUp.accuracy * MINIMUM_MARGIN) return undefined;
  return /^[a-z]{2}$/.test(best.lang) ? best.lang : undefined;
}
