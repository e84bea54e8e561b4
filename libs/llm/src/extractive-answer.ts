import { SentenceRanker, quotableSentences, tokenOverlap } from './sentences';
import type { RankedSentence } from './sentences';
import { numberSources } from './source-chunk';
import type { AnswerSource, SourceChunk } from './source-chunk';

export type AnswerDepth = 'basic' | 'advanced';

const SENTENCES_PER_DEPTH: Record<AnswerDepth, number> = { basic: 2, advanced: 5 };

/**
 * The answer without a model: the sentences of the top chunks that best match the query (BM25 over
 * sentences, favouring higher-ranked chunks), each cited with its source number. Empty when no sentence
 * covers enough of the query: an unsupported answer would be worse than none.
 */
export function extractiveAnswer(query: string, chunks: SourceChunk[], depth: AnswerDepth): { answer: string; sources: AnswerSource[] } {
  const { sources, numberOf } = numberSources(chunks);
  const sentences = chunks.flatMap((chunk, chunkRank) => quotableSentences(chunk.content).map((text) => ({ text, url: chunk.url, chunkRank })));
  const ranked = new SentenceRanker(sentences.map((sentence) => sentence.text)).rank(query, (position) => 1 + 1 / (2 + sentences[position].chunkRank));
  const chosen: RankedSentence[] = [];
  for (const entry of ranked) {
    if (chosen.length >= SENTENCES_PER_DEPTH[depth]) break;
    // Near-copies (the same sentence quoted by two pages) would say the same thing twice.
    if (chosen.some((kept) => tokenOverlap(kept.tokens, entry.tokens) > 0.6)) continue;
    chosen.push(entry);
  }
  const answer = chosen.map(({ position }) => `${sentences[position].text} [${numberOf(sentences[position].url)}]`).join(' ');
  return { answer, sources };
}
