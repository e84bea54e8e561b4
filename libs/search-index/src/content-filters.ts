import { languageCodeOf } from '@sift/pages';
import { guessLanguage } from '@sift/pages';
import { quotedPhrases } from './query-phrases';

/**
 * exact_match on content the local index has not seen (pages fetched for upstream results): every quoted
 * phrase of the query must occur in the title or text, compared case- and whitespace-insensitively.
 */
export function containsQuotedPhrases(query: string, text: string): boolean {
  const phrases = quotedPhrases(query);
  if (phrases.length === 0) return true;
  const haystack = text.toLowerCase().replace(/\s+/g, ' ');
  return phrases.every((phrase) => haystack.includes(phrase));
}

/**
 * The language of a page, as declared when known, else guessed from its text; undefined when neither
 * tells. filter_by_language drops pages whose language is not the requested one, unknown included.
 */
export function pageLanguageOf(declared: string | null | undefined, text: string): string | undefined {
  return languageCodeOf(declared) ?? guessLanguage(text);
}
