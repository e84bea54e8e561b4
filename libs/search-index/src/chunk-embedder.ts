import type { EmbeddingsClient, ModelFailure } from '@sift/models';
import type { ChunkVectorStore } from './chunk-vector.store';

export interface ChunkEmbedderOptions {
  /** Chunks per call to the model (default 32): a CPU server answers a batch of 32 short passages in seconds. */
  batchSize?: number;
  /** Longest one batch may take (default 60 s); past it the pass stops and is tried again later. */
  batchDeadlineMs?: number;
}

export interface EmbeddingProgress {
  /** Chunks stored with a vector in this pass so far. */
  embedded: number;
  /** Chunks that had no vector of the model when the pass began. */
  pending: number;
}

/** What a pass did: its progress, the model's vector size, and why it stopped early (the model failed), if it did. */
export interface EmbeddingPass extends EmbeddingProgress {
  dimension: number | null;
  failure?: ModelFailure;
}

/**
 * Gives every stored chunk a vector of the configured model, off the request path: one pass reads the chunks without
 * one (or with another model's, or another size's) in key order, a batch per call to the model, and stores each
 * vector only if its chunk still says what was embedded. The model's size is asked first, with one short text, so a
 * server that changed models under the same name re-embeds everything. A failing model stops the pass; nothing is
 * written for the batch that failed.
 */
export class ChunkEmbedder {
  constructor(
    private readonly store: ChunkVectorStore,
    private readonly client: EmbeddingsClient,
    private readonly options: ChunkEmbedderOptions = {},
  ) {}

  get model(): string {
    return this.client.model;
  }

  async embedPending(onBatch?: (progress: EmbeddingProgress) => void, signal?: AbortSignal): Promise<EmbeddingPass> {
    const deadlineMs = this.options.batchDeadlineMs ?? 60_000;
    const probe = await this.client.embed(['dimension'], { deadlineMs, ...(signal ? { signal } : {}) });
    if (!probe.ok) return { embedded: 0, pending: 0, dimension: null, failure: probe.failure };
    const dimension = probe.value[0].length;
    const { pending } = await this.store.coverage(this.model, dimension);
    const batchSize = this.options.batchSize ?? 32;
    let embedded = 0;
    let after = { documentId: '00000000-0000-0000-0000-000000000000', position: -1 };
    while (!signal?.aborted) {
      const chunks = await this.store.pending(this.model, dimension, after, batchSize);
      if (chunks.length === 0) break;
      const vectors = await this.client.embed(chunks.map((chunk) => chunk.content), { deadlineMs, dimension, ...(signal ? { signal } : {}) });
      if (!vectors.ok) return { embedded, pending, dimension, failure: vectors.failure };
      embedded += await this.store.write(
        this.model,
        chunks.map((chunk, index) => ({ documentId: chunk.document_id, position: chunk.position, contentHash: chunk.content_hash, vector: vectors.value[index] })),
      );
      const last = chunks[chunks.length - 1];
      after = { documentId: last.document_id, position: last.position };
      onBatch?.({ embedded, pending });
    }
    return { embedded, pending, dimension };
  }
}
