import { configuredModels, type ModelLog, type RerankService } from '@sift/models';
import type { PrismaClient } from '@sift/persistence';
import type { EgressPolicy } from '@sift/safe-fetch';
import { ChunkEmbedder, ChunkEmbeddingLoop, ChunkVectorStore, DenseChunkIndex, LocalIndexProvider } from '@sift/search-index';
import type { ResearchWorkerConfig } from './research-env';

/** What the research worker searches and chooses its sentences with. */
export interface ResearchIndex {
  /** The local index, ranking by meaning as well as by words when EMBEDDINGS_* is set. */
  localIndex: LocalIndexProvider;
  /** The operator's reranker (RERANK_*); without one it keeps every order as given. */
  reranker: RerankService;
  /** EMBEDDINGS_MODEL when dense retrieval is on, else null. */
  embeddingModel: string | null;
  /**
   * The background embedder of the stored chunks, when EMBEDDINGS_BASE_URL is set: it gives the pages the extractor and
   * the crawler store their vectors, off the request path. Every replica runs one; a lease in Postgres lets one of them
   * embed at a time. The research worker hosts it because it mostly waits (on SearXNG, the LLM, the extract queue),
   * and because it is the search squad's code, which the pages squad's workers do not use (docs/architecture.md).
   */
  embeddingLoop?: ChunkEmbeddingLoop;
}

/**
 * The research worker's local index and reranker, as the gateway's (docs/models.md): the pages nearest the query's
 * vector fused with the words' ranking when an embedding model is configured, by words alone (and never touching the
 * vectors' table) when not, and the loop that writes the chunks' vectors.
 */
export function researchIndexOf(config: ResearchWorkerConfig, prisma: PrismaClient, policy: EgressPolicy, log: ModelLog): ResearchIndex {
  const models = configuredModels(config, { policy, log });
  const dense = models.embeddings
    ? new DenseChunkIndex(new ChunkVectorStore(prisma), models.embeddings, { queryTimeoutMs: models.embeddingsTimeoutMs, log: (message) => log('warn', message) })
    : undefined;
  const embeddings = models.embeddings;
  const store = new ChunkVectorStore(prisma);
  return {
    localIndex: new LocalIndexProvider(prisma, dense ? { dense } : {}),
    reranker: models.reranker,
    embeddingModel: embeddings?.model ?? null,
    ...(embeddings
      ? {
          embeddingLoop: new ChunkEmbeddingLoop(new ChunkEmbedder(store, embeddings), store, {
            // A failing model is logged by its client, once per outage; a pass it stops is tried again later.
            onPass: (pass) => {
              if (pass.embedded > 0) log('log', `embedded ${pass.embedded} stored chunks (${pass.pending} pending) with ${embeddings.model}, dimension ${pass.dimension}`);
            },
            onError: (error) => log('warn', `embedding pass failed: ${error instanceof Error ? error.message : String(error)}`),
          }),
        }
      : {}),
  };
}
