export { countWords, tokenize, tokenizeSegmented } from './tokenize';
export { segmentWords } from './segment-words';
export { searchableText } from './searchable-text';
export { chunkText, DEFAULT_CHUNK_CHARS } from './chunk-text';
export { Bm25Index } from './bm25-index';
export type { Bm25Options, ScoredDocument } from './bm25-index';
export { rankChunks, topChunks, CHUNK_SEPARATOR } from './rank-chunks';
export { titleNamesOf, queryNamesOf } from './title-names';
