/**
 * BM25F's query-time parameters. The field weights (title 2, description 1.5, body 1) are fixed when a page is
 * indexed: its postings store the field-weighted term frequencies (migration 20261122030000).
 */
export interface Bm25fParameters {
  k1: number;
  b: number;
}

export interface CorpusStatistics {
  documentCount: number;
  averageWordCount: number;
}

export const DEFAULT_BM25F: Bm25fParameters = { k1: 1.2, b: 0.5 };

/** Lucene's BM25 idf: never negative, so a term in most documents still counts a little. */
export function inverseDocumentFrequency(documentFrequency: number, documentCount: number): number {
  return Math.log(1 + (documentCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}
