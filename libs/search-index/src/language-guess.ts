import { tokenize } from '@sift/ranking';

// The most frequent function words of each language: enough to tell them apart on a paragraph.
const STOP_WORDS: Record<string, string[]> = {
  en: ['the', 'of', 'and', 'to', 'in', 'is', 'that', 'for', 'it', 'with', 'as', 'was', 'on', 'are', 'by', 'this', 'be', 'which'],
  de: ['der', 'die', 'und', 'in', 'den', 'von', 'zu', 'das', 'mit', 'sich', 'des', 'auf', 'für', 'ist', 'im', 'nicht', 'ein', 'eine'],
  fr: ['le', 'la', 'les', 'de', 'des', 'et', 'en', 'du', 'un', 'une', 'est', 'pour', 'que', 'qui', 'dans', 'par', 'sur', 'au'],
  es: ['el', 'la', 'de', 'que', 'y', 'en', 'los', 'del', 'se', 'las', 'por', 'un', 'para', 'con', 'una', 'es', 'al', 'lo'],
  it: ['il', 'di', 'che', 'e', 'la', 'per', 'un', 'in', 'del', 'della', 'non', 'sono', 'una', 'con', 'gli', 'le', 'si', 'da'],
  pt: ['de', 'que', 'o', 'a', 'do', 'da', 'em', 'um', 'para', 'com', 'não', 'uma', 'os', 'no', 'se', 'na', 'por', 'mais'],
  nl: ['de', 'het', 'een', 'en', 'van', 'ik', 'te', 'dat', 'die', 'in', 'is', 'niet', 'op', 'voor', 'met', 'zijn', 'er', 'aan'],
};

const STOP_WORD_SETS = Object.entries(STOP_WORDS).map(([language, words]) => [language, new Set(words)] as const);

/**
 * A language for text that arrives without one (imports of plain text), so it is indexed with the right
 * stemmer and stop words. Undefined when no language's function words reach 8% of the first 2,000 words.
 */
export function guessLanguage(text: string): string | undefined {
  const words = tokenize(text.slice(0, 20000)).slice(0, 2000);
  if (words.length < 5) return undefined;
  let best: string | undefined;
  let bestHits = 0;
  for (const [language, stopWords] of STOP_WORD_SETS) {
    const hits = words.reduce((count, word) => count + (stopWords.has(word) ? 1 : 0), 0);
    if (hits > bestHits) {
      best = language;
      bestHits = hits;
    }
  }
  return bestHits / words.length >= 0.08 ? best : undefined;
}
