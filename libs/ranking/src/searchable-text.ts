import { hyphenateDottedNames } from './dotted-names';
import { segmentWords } from './segment-words';

/**
 * A text as Postgres's text search parser should read it, on both sides of a search (what the index stores and the
 * query): Chinese, Japanese and the other scripts written without spaces cut into words (segmentWords), dotted names
 * hyphenated so their parts are words too (hyphenateDottedNames). Returns the text itself when neither applies.
 */
export function searchableText(text: string): string {
  return segmentWords(hyphenateDottedNames(text));
}
