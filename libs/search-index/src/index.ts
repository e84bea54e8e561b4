// search-index is retrieval: the local index's search SQL over the pages @sift/pages stores, and the upstream search
// providers.
export type { SearchDepth, SearchQuery, SearchTopic, TimeRange } from './search-query';
export type { ImageReference, PublishedDateSource, SearchCandidate } from './search-candidate';
export type { SearchProvider } from './search-provider';
export { LocalIndexProvider, type LocalIndexOptions } from './local-index.provider';
export { DEFAULT_BM25F, inverseDocumentFrequency, type Bm25fParameters } from './bm25f-scorer';
export { SearxngProvider, type SearxngOptions } from './searxng.provider';
export { mergeResults, type MergeOptions } from './merge-results';
export { configuredSearchProviders, SearchFanOut, type FanOutResult, type ProviderOutcome } from './search-fan-out';
export { containsQuotedPhrases, pageLanguageOf } from './content-filters';
export { hostMatchesDomain, isValidDomainEntry, normalizeDomainEntry } from './domain-match';
export { ChunkVectorStore, type ChunkNeighbour, type ChunkVector, type LoadedVectors, type PendingChunk } from './chunk-vector.store';
export { ChunkEmbedder, type ChunkEmbedderOptions, type EmbeddingPass, type EmbeddingProgress } from './chunk-embedder';
export { ChunkEmbeddingLoop, type ChunkEmbeddingLoopOptions } from './chunk-embedding-loop';
export { DenseChunkIndex, type DenseChunkIndexOptions, type DocumentNeighbour } from './dense-chunk-index';
