import { Bm25Index, ScoredDocument } from './bm25-index';
import { chunkText } from './chunk-text';
import { tokenize } from './tokenize';

export const CHUNK_SEPARATOR = ' [...] ';

/** Every chunk scored against the query with BM25, best first (ties in document order). */
export function rankChunks(chunks: string[], query: string): ScoredDocument[] {
  const index = new Bm25Index(chunks.map((chunk) => tokenize(chunk)));
  // Repeated query words would count twice; a query is an intent, not a weighting.
  const queryTokens = Array.from(new Set(tokenize(query)));
  return index.search(queryTokens, chunks.length);
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
