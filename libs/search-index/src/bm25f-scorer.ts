export interface Bm25fParameters {
  k1: number;
  b: number;
  titleWeight: number;
  descriptionWeight: number;
}

export interface CorpusStatistics {
  documentCount: number;
  averageWordCount: number;
}

export const DEFAULT_BM25F: Bm25fParameters = { k1: 1.2, b: 0.5, titleWeight: 2, descriptionWeight: 1.5 };

/** Lucene's BM25 idf: never negative, so a term in most documents still counts a little. */
export function inverseDocumentFrequency(documentFrequency: number, documentCount: number): number {
  return Math.log(1 + (documentCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}
