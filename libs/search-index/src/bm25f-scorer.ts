/** Occurrences of one query lexeme in one document, by field (the tsvector weights A, B and D). */
export interface LexemeOccurrences {
  title: number;
  description: number;
  body: number;
}

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

/**
 * BM25F over the fields a tsvector keeps apart: field-weighted term frequency, saturated once. Returns the
 * score and the best score any document could reach for these lexemes, so callers can map it into [0, 1].
 */
export function scoreBm25f(
  queryLexemes: { lexeme: string; idf: number }[],
  occurrences: Map<string, LexemeOccurrences>,
  wordCount: number,
  corpus: CorpusStatistics,
  parameters: Bm25fParameters = DEFAULT_BM25F,
): { score: number; maximum: number } {
  const { k1, b, titleWeight, descriptionWeight } = parameters;
  const lengthRatio = corpus.averageWordCount > 0 ? wordCount / corpus.averageWordCount : 1;
  const normalizer = k1 * (1 - b + b * lengthRatio);
  let score = 0;
  let maximum = 0;
  for (const { lexeme, idf } of queryLexemes) {
    maximum += idf * (k1 + 1);
    const found = occurrences.get(lexeme);
    if (!found) continue;
    const frequency = titleWeight * found.title + descriptionWeight * found.description + found.body;
    score += (idf * frequency * (k1 + 1)) / (frequency + normalizer);
  }
  return { score, maximum };
}
