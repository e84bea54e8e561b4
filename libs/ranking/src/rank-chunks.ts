import { Bm25Index, ScoredDocument } from './bm25-index';
import { chunkText } from './chunk-text';
import { tokenize } from './tokenize';

export const CHUNK_SEPARATOR = ' [...] ';

/** Every chunk scored against the query with BM25, best first (ties in document order). */
export function rankChunks(chunks: string[], query: string): ScoredDocument[] {
  // Repeated query words would count twice; a query is an intent, not a weighting.
  const queryTokens = Array.from(new Set(tokenize(query)));
  const wanted = new Set(queryTokens);
  // Only the query's terms change a score: indexing every word of every chunk was most of a search's ranking time.
  const documentLengths: number[] = [];
  const queryTermsPerChunk = chunks.map((chunk) => {
    const tokens = tokenize(chunk);
    documentLengths.push(tokens.length);
    return tokens.filter((token) => wanted.has(token));
  });
  return new Bm25Index(queryTermsPerChunk, { documentLengths }).search(queryTokens, chunks.length);
}

/** The `count` most relevant chunks of a text, put back in document order and joined by CHUNK_SEPARATOR. */
export function topChunks(text: string, query: string, count: number): string {
  const chunks = chunkText(text);
  const best = rankChunks(chunks, query).slice(0, Math.max(1, Math.floor(count)));
  return best
    .map((scored) => scored.index)
    .sort((left, right) => left - right)
    .map((index) => chunks[index])
    .join(CHUNK_SEPARATOR);
}
