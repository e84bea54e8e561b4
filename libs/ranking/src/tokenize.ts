import { segmentWords } from './segment-words';

// Letters, digits and combining marks: combining marks keep Indic and Arabic words whole instead of cutting
// them at every vowel sign, which `\w` (ASCII-only without flags) would do.
const WORD_PATTERN = /[\p{L}\p{N}\p{M}]+/gu;

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
