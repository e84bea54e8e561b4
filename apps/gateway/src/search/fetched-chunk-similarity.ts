import type { ConfiguredModels } from '@sift/models';
import { rankChunks } from '@sift/ranking';
import type { ChunkSimilarities } from './result-chunks';
import type { SourceContent } from './source-content';

/**
 * Chunks of one page sent to the model: half the words' best, the rest the page's first (where a page says what it is
 * about), so a passage in other words than the query's can still be found near the top of the page.
 */
export const EMBEDDED_CHUNKS_PER_PAGE = 8;
/** Chunks of one search sent to the model, pages in rank order: one batch a small CPU model answers in well under a second. */
export const EMBEDDED_CHUNKS_PER_SEARCH = 64;

/** Whether the model chose among a search's fetched chunks: `model`, `fallback` (it failed or was too slow), or null (none asked). */
export type ChunkSimilarityMode = 'model' | 'fallback' | null;

export interface FetchedChunkSimilarities {
  similarities?: ChunkSimilarities;
  mode: ChunkSimilarityMode;
}

/**
 * The meaning of the pages fetched (or read from the store) for a search's upstream results, computed on the way: one
 * call to the embedding model per search with the query and a bounded number of each page's chunks, within the time
 * the search has left. The similarities go into the chunk choice (result-chunks.ts); a model that fails or is too slow
 * leaves the words' choice, and without a model nothing is asked.
 */
export class FetchedChunkSimilarity {
  constructor(private readonly models: Pick<ConfiguredModels, 'embeddings' | 'embeddingsTimeoutMs'>) {}

  get enabled(): boolean {
    return this.models.embeddings !== undefined;
  }

  /** `perSource`: each source's chunks as the content is chosen from (sourceChunks); `deadlineMs`: the time left for the call. */
  async similarities(query: string, sources: readonly SourceContent[], perSource: readonly string[][], deadlineMs: number): Promise<FetchedChunkSimilarities> {
    const client = this.models.embeddings;
    if (!client) return { mode: null };
    const picked: { source: number; position: number }[] = [];
    for (const [source, content] of sources.entries()) {
      const room = EMBEDDED_CHUNKS_PER_SEARCH - picked.length;
      if (room <= 0) break;
      // Pages the gateway cuts itself: an upstream result's fetched or stored page. Local-index results were ranked by
      // meaning in the index, and a snippet is no page.
      if (!content.candidate.contentIsSnippet || content.snippetOnly || content.chunks || perSource[source].length === 0) continue;
      for (const position of chunksToEmbed(perSource[source], query, Math.min(room, EMBEDDED_CHUNKS_PER_PAGE))) picked.push({ source, position });
    }
    if (picked.length === 0) return { mode: null };
    const outcome = await client.embed([query, ...picked.map(({ source, position }) => perSource[source][position])], {
      deadlineMs: Math.min(deadlineMs, this.models.embeddingsTimeoutMs),
    });
    if (!outcome.ok) return { mode: 'fallback' };
    const [queryVector, ...chunkVectors] = outcome.value;
    const similarities = sources.map(() => undefined as Map<number, number> | undefined);
    picked.forEach(({ source, position }, index) => {
      const bySource = (similarities[source] ??= new Map());
      bySource.set(position, cosine(queryVector, chunkVectors[index]));
    });
    return { similarities, mode: 'model' };
  }
}

/** The positions of a page's chunks to embed, at most `count`: the words' best half, then the first ones of the page. */
function chunksToEmbed(chunks: readonly string[], query: string, count: number): number[] {
  const chosen = new Set<number>();
  for (const { index, score } of rankChunks([...chunks], query)) {
    if (chosen.size >= Math.ceil(count / 2) || score <= 0) break;
    chosen.add(index);
  }
  for (let position = 0; position < chunks.length && chosen.size < count; position++) chosen.add(position);
  return [...chosen];
}

function cosine(left: Float32Array, right: Float32Array): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (let component = 0; component < left.length; component++) {
    dot += left[component] * right[component];
    leftNorm += left[component] * left[component];
    rightNorm += right[component] * right[component];
  }
  return leftNorm > 0 && rightNorm > 0 ? dot / Math.sqrt(leftNorm * rightNorm) : 0;
}
