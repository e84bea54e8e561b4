import { modelFailure, type EmbeddingsClient, type ModelOutcome } from '@sift/models';
import type { ChunkNeighbour, ChunkVectorStore, LoadedVectors } from './chunk-vector.store';

export interface DenseChunkIndexOptions {
  /** EMBEDDINGS_TIMEOUT_MS: the most a search waits for its query's vector. */
  queryTimeoutMs: number;
  /**
   * Without pgvector, the vectors are held in memory and scanned whole on the event loop, up to this many chunks
   * (default 100,000: 154 MB at 384 dimensions, a scan of about 175 ms on the development machine; docs/models.md).
   * Above it dense retrieval needs pgvector and is off without it.
   */
  maximumInMemoryChunks?: number;
  /** How often a search checks whether vectors were written since the copy in memory (default 1 s). */
  changesCheckMs?: number;
  /** Said once when the vectors outgrow the in-memory bound without pgvector. */
  log?: (message: string) => void;
}

/** How the vectors are searched, decided once per process: pgvector's HNSW index, the in-memory scan, or neither. */
type Mode = 'pgvector' | 'memory';

/** A page near the query: its best chunk's similarity. */
export type DocumentNeighbour = ChunkNeighbour;

/** The copy in memory with the change count it was read at. */
interface HeldVectors {
  vectors: LoadedVectors | null;
  changes: number;
}

/**
 * Dense retrieval over the stored chunks' vectors: the query embedded by the operator's model (within the search's
 * deadline and EMBEDDINGS_TIMEOUT_MS), and the pages whose best chunk is nearest it by cosine similarity among those
 * the viewer may see (shared pages and its own: the page store's rule). With pgvector installed the HNSW index answers;
 * without it the vectors of the model are held in memory (loaded again, in the background, when the vectors change)
 * and scanned whole, a scan bounded by maximumInMemoryChunks.
 */
export class DenseChunkIndex {
  private mode?: Promise<Mode>;
  private held?: HeldVectors;
  private loading?: Promise<HeldVectors>;
  private checkedAt = 0;
  private warnedOversize = false;

  constructor(
    private readonly store: ChunkVectorStore,
    private readonly client: EmbeddingsClient,
    private readonly options: DenseChunkIndexOptions,
  ) {}

  get model(): string {
    return this.client.model;
  }

  /**
   * The `limit` pages nearest the query, best first; a failure of the model (or no vectors yet: an empty list) is a
   * value, and the caller ranks by words alone.
   */
  async nearestDocuments(query: string, viewer: string | null, limit: number, deadlineMs: number): Promise<ModelOutcome<DocumentNeighbour[]>> {
    const mode = await (this.mode ??= this.store.hasPgvector().then((installed) => (installed ? 'pgvector' : 'memory')));
    const budget = Math.min(deadlineMs, this.options.queryTimeoutMs);
    if (budget <= 0) return modelFailure('timeout', 'no time left for the query vector');
    if (mode === 'pgvector') {
      const dimension = await this.store.dimensionOf(this.model);
      if (dimension === null) return { ok: true, value: [] };
      const embedded = await this.client.embed([query], { deadlineMs: budget, dimension });
      if (!embedded.ok) return embedded;
      return { ok: true, value: bestPerDocument(await this.store.nearestWithPgvector(this.model, embedded.value[0], viewer, limit * 4), limit) };
    }
    const { vectors } = await this.current();
    if (!vectors || vectors.documentIds.length === 0) return { ok: true, value: [] };
    const embedded = await this.client.embed([query], { deadlineMs: budget, dimension: vectors.dimension });
    if (!embedded.ok) return embedded;
    return { ok: true, value: scan(vectors, embedded.value[0], viewer, limit) };
  }

  /** The copy in memory: loaded on first use, and again in the background once vectors were written since. */
  private async current(): Promise<HeldVectors> {
    if (!this.held) return (this.held = await this.reload());
    if (Date.now() - this.checkedAt >= (this.options.changesCheckMs ?? 1_000) && !this.loading) {
      this.checkedAt = Date.now();
      const held = this.held;
      this.store
        .changes()
        .then((changes) => (changes !== held.changes ? this.reload() : held))
        .then((fresh) => (this.held = fresh))
        .catch(() => undefined);
    }
    return this.held;
  }

  private reload(): Promise<HeldVectors> {
    this.loading ??= (async () => {
      try {
        // The count first: a vector written during the load moves it again, and the next check loads once more.
        const changes = await this.store.changes();
        const dimension = await this.store.dimensionOf(this.model);
        const maximum = this.options.maximumInMemoryChunks ?? 100_000;
        const vectors = dimension === null ? null : await this.store.load(this.model, dimension, maximum);
        if (dimension !== null && vectors === null && !this.warnedOversize) {
          this.warnedOversize = true;
          this.options.log?.(`more than ${maximum} chunk vectors of ${this.model}: dense retrieval needs pgvector for a corpus this size, and is off`);
        }
        this.checkedAt = Date.now();
        return { vectors, changes };
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }
}

/** Each page's best chunk, best pages first, at most limit. */
function bestPerDocument(neighbours: ChunkNeighbour[], limit: number): DocumentNeighbour[] {
  const best = new Map<string, ChunkNeighbour>();
  for (const neighbour of neighbours) {
    const known = best.get(neighbour.documentId);
    if (!known || neighbour.similarity > known.similarity) best.set(neighbour.documentId, neighbour);
  }
  return [...best.values()].sort((left, right) => right.similarity - left.similarity).slice(0, limit);
}

/**
 * Cosine similarity of the query with every chunk the viewer may see (the rows are unit length: a dot product),
 * keeping each page's best chunk. Rows come in document order, so a page's chunks are neighbours.
 */
function scan(vectors: LoadedVectors, query: Float32Array, viewer: string | null, limit: number): DocumentNeighbour[] {
  const { dimension, matrix, documentIds, owners, positions } = vectors;
  let norm = 0;
  for (const value of query) norm += value * value;
  if (norm === 0) return [];
  const unit = query.map((value) => value / Math.sqrt(norm));
  const best: ChunkNeighbour[] = [];
  let current: ChunkNeighbour | undefined;
  for (let row = 0; row < documentIds.length; row++) {
    const owner = owners[row];
    if (owner !== null && owner !== viewer) continue;
    let dot = 0;
    const base = row * dimension;
    for (let component = 0; component < dimension; component++) dot += matrix[base + component] * unit[component];
    if (current && current.documentId === documentIds[row]) {
      if (dot > current.similarity) [current.similarity, current.position] = [dot, positions[row]];
    } else {
      current = { documentId: documentIds[row], position: positions[row], similarity: dot };
      best.push(current);
    }
  }
  return best.sort((left, right) => right.similarity - left.similarity).slice(0, limit);
}
