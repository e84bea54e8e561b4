// The model endpoints a search benchmark measures with, and the three ways it ranks: words alone, words fused with the
// embedding model's nearest pages (hybrid), and hybrid with the reranker (docs/models.md).
//   BENCH_EMBEDDINGS_BASE_URL, BENCH_EMBEDDINGS_MODEL, BENCH_EMBEDDINGS_API_KEY: the embedding model (EMBEDDINGS_*)
//   BENCH_RERANK_BASE_URL, BENCH_RERANK_MODEL, BENCH_RERANK_API_KEY, BENCH_RERANK_API: the reranker (RERANK_*)
//   BENCH_LOOPBACK_MODEL=1: instead, a loopback model server in this process (feature-hashed words, word-overlap
//   scores) that checks the plumbing; its figures say nothing about any model and are printed as such.
import { createHash } from 'node:crypto';
import { tokenize } from '@sift/ranking';
import { startLoopbackModelServer, type LoopbackModelServer } from '@sift/testing';

export type RankingMode = 'lexical' | 'hybrid' | 'reranked';

export const RANKING_MODES: readonly RankingMode[] = ['lexical', 'hybrid', 'reranked'];

export interface BenchModels {
  /** What the figures of the hybrid and reranked ways measure: the operator's model, or the loopback plumbing check. */
  kind: 'model' | 'loopback';
  /** EMBEDDINGS_* for the processes a benchmark starts; absent when no embedding model is given. */
  embeddings?: Record<string, string>;
  /** RERANK_* for them; absent when no reranker is given. */
  rerank?: Record<string, string>;
  close(): Promise<void>;
}

/** Components of the loopback model's vectors: words hashed into them, so only pages sharing words are near. */
const LOOPBACK_DIMENSIONS = 256;

/** A text's words counted into LOOPBACK_DIMENSIONS buckets by their hash: a bag of words, not a meaning. */
function hashedWords(text: string): number[] {
  const vector = new Array<number>(LOOPBACK_DIMENSIONS + 1).fill(0);
  // One constant component, so no text is the zero vector.
  vector[LOOPBACK_DIMENSIONS] = 0.01;
  for (const word of tokenize(text)) vector[createHash('md5').update(word).digest().readUInt32BE(0) % LOOPBACK_DIMENSIONS] += 1;
  return vector;
}

/** The share of the query's words a passage holds. */
function wordOverlap(query: string, passage: string): number {
  const words = new Set(tokenize(query));
  if (words.size === 0) return 0;
  const held = new Set(tokenize(passage).filter((word) => words.has(word)));
  return held.size / words.size;
}

/** The endpoints given in the environment, the loopback server, or null (no model configured). */
export async function benchModels(environment: NodeJS.ProcessEnv = process.env): Promise<BenchModels | null> {
  if (environment.BENCH_LOOPBACK_MODEL === '1') {
    const server: LoopbackModelServer = await startLoopbackModelServer({ embed: hashedWords, score: wordOverlap });
    return {
      kind: 'loopback',
      embeddings: { EMBEDDINGS_BASE_URL: server.baseUrl, EMBEDDINGS_MODEL: 'loopback-hashed-words' },
      rerank: { RERANK_BASE_URL: server.teiUrl, RERANK_MODEL: 'loopback-word-overlap', RERANK_API: 'tei' },
      close: () => server.close(),
    };
  }
  const value = (name: string) => environment[name]?.trim() ?? '';
  const embeddings = value('BENCH_EMBEDDINGS_BASE_URL')
    ? { EMBEDDINGS_BASE_URL: value('BENCH_EMBEDDINGS_BASE_URL'), EMBEDDINGS_MODEL: value('BENCH_EMBEDDINGS_MODEL'), EMBEDDINGS_API_KEY: value('BENCH_EMBEDDINGS_API_KEY') }
    : undefined;
  const rerank = value('BENCH_RERANK_BASE_URL')
    ? { RERANK_BASE_URL: value('BENCH_RERANK_BASE_URL'), RERANK_MODEL: value('BENCH_RERANK_MODEL'), RERANK_API_KEY: value('BENCH_RERANK_API_KEY'), RERANK_API: value('BENCH_RERANK_API') || 'auto' }
    : undefined;
  if (!embeddings && !rerank) return null;
  return { kind: 'model', ...(embeddings ? { embeddings } : {}), ...(rerank ? { rerank } : {}), close: async () => undefined };
}

/** No model for a process: set empty, so the benchmark's own environment cannot switch one on. */
const NO_MODELS = { EMBEDDINGS_BASE_URL: '', EMBEDDINGS_MODEL: '', RERANK_BASE_URL: '', RERANK_MODEL: '' };

/**
 * The environment of the processes a benchmark starts for one way of ranking, or null when that way needs a model
 * that was not given (hybrid: an embedding model; reranked: a reranker, over hybrid when an embedding model is given).
 */
export function rankingEnvironment(mode: RankingMode, models: BenchModels | null): Record<string, string> | null {
  if (mode === 'lexical') return { ...NO_MODELS };
  if (mode === 'hybrid') return models?.embeddings ? { ...NO_MODELS, ...models.embeddings } : null;
  return models?.rerank ? { ...NO_MODELS, ...(models.embeddings ?? {}), ...models.rerank } : null;
}

/** The heading a benchmark prints above one way's tables; the loopback check says what its figures are not. */
export function rankingHeading(mode: RankingMode, models: BenchModels | null): string {
  const environment = rankingEnvironment(mode, models);
  if (mode === 'lexical') return '# Ranking: lexical (no model)';
  const what = mode === 'hybrid' ? 'hybrid (words fused with the embedding model’s nearest pages)' : 'reranked (hybrid, then the reranker)';
  if (!environment || !models) return `# Ranking: ${what}: no model configured (BENCH_EMBEDDINGS_*, BENCH_RERANK_* or BENCH_LOOPBACK_MODEL=1)`;
  const names = [environment.EMBEDDINGS_MODEL, environment.RERANK_MODEL].filter((name) => name).join(' + ');
  if (models.kind === 'loopback') {
    return `# Ranking: ${what}, LOOPBACK PLUMBING CHECK (${names}): hashed words, not a model; these figures measure no model's quality`;
  }
  return `# Ranking: ${what}, ${names}`;
}
