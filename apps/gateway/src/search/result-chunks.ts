import { chunkText, rankChunks } from '@sift/ranking';
import type { SourceContent } from './source-content';

const SNIPPET_CHARACTERS = 500;

/**
 * Reciprocal rank fusion's constant, as the local index and the fan-out fuse with: a chunk's fused score is the sum
 * over the rankings that retrieved it of 1 / (RRF_RANK_CONSTANT + its rank there).
 */
const RRF_RANK_CONSTANT = 60;

export interface ChunkedSource {
  source: SourceContent;
  /** The chosen chunks in document order, each at most 500 characters. */
  chunks: string[];
  /** The best chunk's relevance relative to the best chunk of all sources, in [0, 1]. */
  chunkRelevance: number;
}

export interface ChunkOptions {
  query: string;
  chunksPerSource: number;
  /** advanced: one BM25 ranking over the chunks of every source, so chunk relevance compares across pages. */
  crossSource: boolean;
}

/**
 * Per source, the cosine similarity to the query's vector of the chunks that were embedded (by position in
 * sourceChunks' cut); undefined for a source none of whose chunks was.
 */
export type ChunkSimilarities = readonly (ReadonlyMap<number, number> | undefined)[];

/**
 * The chunks each source's content is chosen from: its text cut into pieces of at most 500 characters, or the upstream
 * snippet when the page could not be read; none when the local index chose them already (outside advanced).
 */
export function sourceChunks(sources: readonly SourceContent[], options: Pick<ChunkOptions, 'crossSource'>): string[][] {
  return sources.map((source) =>
    source.snippetOnly ? [source.page.text.slice(0, SNIPPET_CHARACTERS)] : source.chunks && !options.crossSource ? [] : chunkText(source.page.text),
  );
}

/**
 * The content of each result: the chunks of its text that best match the query (chunks_per_source of them),
 * or the upstream snippet when the page could not be read. Cross-source ranking scores every chunk against
 * the same corpus statistics, so a page whose best passage beats the others' can move up. With `similarities` (the
 * embedding model's, for the chunks that were embedded), the words' ranking and the similarity ranking are fused by
 * reciprocal rank fusion, so a passage saying the same in other words can be chosen.
 */
export function chunkSources(
  sources: SourceContent[],
  options: ChunkOptions,
  perSource: string[][] = sourceChunks(sources, options),
  similarities?: ChunkSimilarities,
): ChunkedSource[] {
  if (options.crossSource) return rankAcrossSources(sources, perSource, options, similarities);
  return sources.map((source, index) => {
    if (source.chunks) return { source, chunks: source.chunks.slice(0, options.chunksPerSource), chunkRelevance: 0 };
    const chunks = perSource[index];
    const bySource = similarities?.[index];
    const ranked = fused(rankChunks(chunks, options.query), bySource && ((position) => bySource.get(position)));
    const chosen = ranked.slice(0, options.chunksPerSource).map((scored) => scored.index).sort((left, right) => left - right);
    return { source, chunks: chosen.map((position) => chunks[position]), chunkRelevance: 0 };
  });
}

function rankAcrossSources(sources: SourceContent[], perSource: string[][], options: ChunkOptions, similarities?: ChunkSimilarities): ChunkedSource[] {
  const owners: { source: number; position: number }[] = [];
  const all: string[] = [];
  perSource.forEach((chunks, source) =>
    chunks.forEach((chunk, position) => {
      owners.push({ source, position });
      all.push(chunk);
    }),
  );
  const ranked = fused(rankChunks(all, options.query), similarities && ((index) => similarities[owners[index].source]?.get(owners[index].position)));
  const best = Math.max(0, ...ranked.map((scored) => scored.score));
  const chosen = sources.map(() => [] as { position: number; score: number }[]);
  for (const scored of ranked) {
    const owner = owners[scored.index];
    if (chosen[owner.source].length < options.chunksPerSource) chosen[owner.source].push({ position: owner.position, score: scored.score });
  }
  return sources.map((source, index) => {
    const picks = chosen[index].length > 0 ? chosen[index] : perSource[index].length > 0 ? [{ position: 0, score: 0 }] : [];
    const top = Math.max(0, ...picks.map((pick) => pick.score));
    return {
      source,
      chunks: [...picks].sort((left, right) => left.position - right.position).map((pick) => perSource[index][pick.position]),
      chunkRelevance: best > 0 ? top / best : 0,
    };
  });
}

/**
 * The words' ranking of the chunks fused with their similarity ranking by reciprocal rank fusion, best first. A
 * ranking counts only the chunks it retrieved: those holding a query word for the words, those embedded for the
 * similarity. Without any similarity, the words' ranking as it is.
 */
function fused(lexical: { index: number; score: number }[], similarityOf?: (index: number) => number | undefined): { index: number; score: number }[] {
  if (!similarityOf) return lexical;
  const dense = lexical
    .map(({ index }) => ({ index, similarity: similarityOf(index) }))
    .filter((entry): entry is { index: number; similarity: number } => entry.similarity !== undefined)
    .sort((left, right) => right.similarity - left.similarity || left.index - right.index);
  if (dense.length === 0) return lexical;
  const scores = new Map<number, number>();
  lexical.forEach(({ index, score }, rank) => scores.set(index, score > 0 ? 1 / (RRF_RANK_CONSTANT + rank + 1) : 0));
  dense.forEach(({ index }, rank) => scores.set(index, (scores.get(index) ?? 0) + 1 / (RRF_RANK_CONSTANT + rank + 1)));
  // Ties keep the words' order (and, among chunks with no query word, the page's).
  return lexical.map(({ index }) => ({ index, score: scores.get(index) ?? 0 })).sort((left, right) => right.score - left.score);
}
