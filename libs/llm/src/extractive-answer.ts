import { Bm25Index, tokenize } from '@sift/ranking';
import { numberSources } from './source-chunk';
import type { AnswerSource, SourceChunk } from './source-chunk';

export type AnswerDepth = 'basic' | 'advanced';

interface Sentence {
  text: string;
  url: string;
  chunkRank: number;
}

const MINIMUM_QUERY_COVERAGE = 0.3;

const SENTENCES_PER_DEPTH: Record<AnswerDepth, number> = { basic: 2, advanced: 5 };

function sentencesOf(chunk: SourceChunk, chunkRank: number): Sentence[] {
  const plain = chunk.content
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#*_`>|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“(])/u)
    .map((text) => text.trim())
    .filter((text) => text.length >= 20 && text.length <= 500)
    .map((text) => ({ text, url: chunk.url, chunkRank }));
}

function overlap(left: string[], right: string[]): number {
  const rightSet = new Set(right);
  const shared = new Set(left.filter((token) => rightSet.has(token))).size;
  const union = new Set([...left, ...right]).size;
  return union === 0 ? 0 : shared / union;
}

/**
 * The answer without a model: the sentences of the top chunks that best match the query (BM25 over
 * sentences, favouring higher-ranked chunks), each cited with its source number. Empty when no sentence
 * covers enough of the query: an unsupported answer would be worse than none.
 */
export function extractiveAnswer(query: string, chunks: SourceChunk[], depth: AnswerDepth): { answer: string; sources: AnswerSource[] } {
  const { sources, numberOf } = numberSources(chunks);
  const sentences = chunks.flatMap((chunk, rank) => sentencesOf(chunk, rank));
  const tokens = sentences.map((sentence) => tokenize(sentence.text));
  const index = new Bm25Index(tokens);
  const queryTokens = [...new Set(tokenize(query))];
  const queryWeight = queryTokens.reduce((sum, token) => sum + index.idf(token), 0);
  // A sentence must cover a fair share of the query's idf mass: sharing only "in" or "the" is no support.
  const supported = (sentenceTokens: string[]) => {
    const present = new Set(sentenceTokens);
    const covered = queryTokens.filter((token) => present.has(token)).reduce((sum, token) => sum + index.idf(token), 0);
    return queryWeight > 0 && covered / queryWeight >= MINIMUM_QUERY_COVERAGE;
  };
  const ranked = sentences
    .map((sentence, position) => ({
      sentence,
      tokens: tokens[position],
      score: index.score(queryTokens, position) * (1 + 1 / (2 + sentence.chunkRank)),
    }))
    .filter((entry) => entry.score > 0 && supported(entry.tokens))
    .sort((left, right) => right.score - left.score);
  const chosen: typeof ranked = [];
  for (const entry of ranked) {
    if (chosen.length >= SENTENCES_PER_DEPTH[depth]) break;
    // Near-copies (the same sentence quoted by two pages) would say the same thing twice.
    if (chosen.some((kept) => overlap(kept.tokens, entry.tokens) > 0.6)) continue;
    chosen.push(entry);
  }
  const answer = chosen.map(({ sentence }) => `${sentence.text} [${numberOf(sentence.url)}]`).join(' ');
  return { answer, sources };
}
