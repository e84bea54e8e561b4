/** Content words further apart than this (function words between them) are not read as one phrase. */
const MAXIMUM_FUNCTION_WORDS_BETWEEN = 2;

export interface ProximitySpan {
  /** The query's text from one content word to the next. */
  span: string;
  /** The two content words it pairs. */
  words: [string, string];
}

/**
 * The spans of a query that pair each content word with the next one ("boundary layer", "line of code"), for the
 * proximity feature of the sequential dependence model (Metzler and Croft, SIGIR 2005): a page that has the two
 * words next to each other, in this order, matches the span as a phrase (`phraseto_tsquery` keeps the function
 * words' distance). Words are the query's whitespace-separated tokens; `isContentWord` says which carry its topic.
 * Distinct spans, in query order.
 */
export function proximitySpans(text: string, isContentWord: (word: string) => boolean): ProximitySpan[] {
  const words = text.split(/\s+/).filter(Boolean);
  const spans = new Map<string, ProximitySpan>();
  let previous = -1;
  words.forEach((word, position) => {
    if (!isContentWord(word)) return;
    if (previous >= 0 && position - previous - 1 <= MAXIMUM_FUNCTION_WORDS_BETWEEN) {
      const span = words.slice(previous, position + 1).join(' ');
      if (!spans.has(span)) spans.set(span, { span, words: [words[previous], word] });
    }
    previous = position;
  });
  return [...spans.values()];
}
