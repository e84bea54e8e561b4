// Scripts written without spaces between words: Chinese (Han), Japanese (Han, Hiragana, Katakana), Thai, Lao,
// Khmer and Burmese. A run takes in, by Script_Extensions, their punctuation and the marks they share (ー, 々, 。),
// which the segmenter then drops as non-words. Korean separates its words with spaces and is left alone.
const UNSPACED_RUN = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]+/gu;
// The test that lets every other text through untouched: letters of those scripts only (Script, not
// Script_Extensions), which V8 answers without scanning a string it stores as Latin-1, as most English text is.
const UNSPACED_LETTER = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]/u;

// ICU's dictionary-based word breaking, the same for every locale of these scripts.
const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

// ICU's cost per character grows with the length of the text it breaks (20,000 characters of Chinese at once: 3
// times the CPU of 128 at a time), and each call has a fixed cost: long runs are broken in pieces of about this
// many characters, each ending at a punctuation mark or space where one is near (a word is cut only in a run of
// 128 characters without any), never inside a surrogate pair.
const PIECE_CHARS = 256;
const PIECE_END = /[\p{P}\s]/u;
const HIGH_SURROGATE = /[\uD800-\uDBFF]/;

function wordsOf(piece: string, words: string[]): void {
  for (const segment of segmenter.segment(piece)) if (segment.isWordLike) words.push(segment.segment);
}

function spacedRun(run: string): string {
  const words: string[] = [];
  let start = 0;
  while (run.length - start > PIECE_CHARS) {
    let end = start + PIECE_CHARS;
    if (HIGH_SURROGATE.test(run[end - 1])) end--;
    for (let cut = end; cut > start + PIECE_CHARS / 2; cut--) {
      if (PIECE_END.test(run[cut - 1])) {
        end = cut;
        break;
      }
    }
    wordsOf(run.slice(start, end), words);
    start = end;
  }
  wordsOf(run.slice(start), words);
  return ` ${words.join(' ')} `;
}

/**
 * The text with its runs of Chinese, Japanese, Thai, Lao, Khmer and Burmese cut into words separated by spaces
 * ("我们研究机器学习" → " 我们 研究 机器 学习 "), so a tokenizer that splits at spaces (Postgres' text search
 * parser, `tokenize`) sees words instead of whole sentences. Text without those scripts is returned as is, after
 * one test and without calling the segmenter. Used on both sides of a search: what is indexed and the query.
 */
export function segmentWords(text: string): string {
  if (!UNSPACED_LETTER.test(text)) return text;
  return text.replace(UNSPACED_RUN, spacedRun);
}
