import { chunkText, rankChunks } from '@sift/ranking';
import type { SourceContent } from './source-content';

const SNIPPET_CHARACTERS = 500;

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
 * The content of each result: the chunks of its text that best match the query (chunks_per_source of them),
 * or the upstream snippet when the page could not be read. Cross-source ranking scores every chunk against
 * the same corpus statistics, so a page whose best passage beats the others' can move up.
 */
export function chunkSources(sources: SourceContent[], options: ChunkOptions): ChunkedSource[] {
  const perSource = sources.map((source) =>
    source.snippetOnly ? [source.page.text.slice(0, SNIPPET_CHARACTERS)] : source.chunks && !options.crossSource ? [] : chunkText(source.page.text),
  );
  if (options.crossSource) return rankAcrossSources(sources, perSource, options);
  return sources.map((source, index) => {
    if (source.chunks) return { source, chunks: source.chunks.slice(0, options.chunksPerSource), chunkRelevance: 0 };
    const chunks = perSource[index];
    const ranked = rankChunks(chunks, options.query);
    const chosen = ranked.slice(0, options.chunksPerSource).map((scored) => scored.index).sort((left, right) => left - right);
    return { source, chunks: chosen.map((position) => chunks[position]), chunkRelevance: 0 };
  });
}

function rankAcrossSources(sources: SourceContent[], perSource: string[][], options: ChunkOptions): ChunkedSource[] {
  const owners: { source: number; position: number }[] = [];
  const all: string[] = [];
  perSource.forEach((chunks, source) =>
    chunks.forEach((chunk, position) => {
      owners.push({ source, position });
      all.push(chunk);
    }),
  );
  const ranked = rankChunks(all, options.query);
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
