import { segmentWords } from './segment-words';

// Letters, digits and combining marks: combining marks keep Indic and Arabic words whole instead of cutting
// them at every vowel sign, which `\w` (ASCII-only without flags) would do.
const WORD_CLASS = '[\\p{L}\\p{N}\\p{M}]';
const WORD_PATTERN = new RegExp(`${WORD_CLASS}+`, 'gu');

/**
 * Lower-case Unicode words of a text; the tokenizer shared by chunk ranking and search. Chinese, Japanese and the
 * other scripts written without spaces are cut into words first (segmentWords), as the index does.
 */
export function tokenize(text: string): string[] {
  return tokenizeSegmented(segmentWords(text));
}

/** tokenize for text segmentWords has already cut: the same words, without segmenting a second time. */
export function tokenizeSegmented(text: string): string[] {
  return text.toLowerCase().match(WORD_PATTERN) ?? [];
}

/** One code point of WORD_PATTERN's words. */
const WORD_CHARACTER = new RegExp(`^${WORD_CLASS}$`, 'u');
/** Whether each UTF-16 code unit is one WORD_PATTERN matches (surrogates are not: they are read in pairs). */
let wordUnits: Uint8Array | undefined;

function wordUnitTable(): Uint8Array {
  const table = new Uint8Array(0x10000);
  for (let unit = 0; unit < 0x10000; unit += 1) {
    if (unit >= 0xd800 && unit <= 0xdfff) continue;
    table[unit] = WORD_CHARACTER.test(String.fromCharCode(unit)) ? 1 : 0;
  }
  return table;
}

/**
 * How many words tokenizeSegmented finds in a text, without making them: the runs of letters, digits and marks,
 * read a code unit at a time from a table (a Unicode property pattern costs several times more per character).
 * Lower-casing maps every such code point to such code points and every other to others (tokenize.spec.ts checks
 * every code point), so the text's own runs are counted, with no lower-cased copy and no array of words.
 */
export function countWords(text: string): number {
  const table = (wordUnits ??= wordUnitTable());
  let words = 0;
  let inWord = false;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    let isWord: boolean;
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      isWord = WORD_CHARACTER.test(text.slice(index, index + 2));
      index += 1;
    } else {
      isWord = table[unit] === 1;
    }
    if (isWord && !inWord) words += 1;
    inWord = isWord;
  }
  return words;
}
