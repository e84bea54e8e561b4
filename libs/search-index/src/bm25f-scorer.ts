/**
 * BM25F's query-time parameters: k1, and b for the body. The short fields (title 2, description 1.5, headings 1.5)
 * are weighted and normalised by their own lengths when a page is indexed: its postings store their share of the
 * term frequency apart from the body's count (migration 20261124030000).
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

/**
 * Lucene's BM25 idf: never negative, so a term in most documents still counts a little. A frequency above the page
 * count (counted among pages stored after the count was taken) is taken as the count: a term in every page.
 */
export function inverseDocumentFrequency(documentFrequency: number, documentCount: number): number {
  const frequency = Math.min(Math.max(documentFrequency, 0), Math.max(documentCount, 0));
  return Math.log(1 + (documentCount - frequency + 0.5) / (frequency + 0.5));
}
