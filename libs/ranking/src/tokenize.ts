// Letters, digits and combining marks: combining marks keep Indic and Arabic words whole instead of cutting
// them at every vowel sign, which `\w` (ASCII-only without flags) would do.
const WORD_PATTERN = /[\p{L}\p{N}\p{M}]+/gu;

/** Lower-case Unicode words of a text; the tokenizer shared by chunk ranking and search. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(WORD_PATTERN) ?? [];
}
