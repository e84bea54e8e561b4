export interface Bm25Options {
  /** Term-frequency saturation. */
  k1?: number;
  /** Length normalisation: 0 ignores document length, 1 normalises fully. */
  b?: number;
  /**
   * Each document's length in tokens, when the token lists given are only the terms that will be scored
   * (the query's): scores and idf of those terms are then the same as over the full lists.
   */
  documentLengths?: number[];
}

export interface ScoredDocument {
  index: number;
  score: number;
}

/** Okapi BM25 over pre-tokenized documents, with Lucene's non-negative idf. */
export class Bm25Index {
  private readonly k1: number;
  private readonly b: number;
  private readonly termFrequencies: Map<string, number>[];
  private readonly documentFrequencies = new Map<string, number>();
  private readonly lengths: number[];
  private readonly averageLength: number;

  constructor(documents: string[][], options: Bm25Options = {}) {
    this.k1 = options.k1 ?? 1.2;
    this.b = options.b ?? 0.75;
    this.lengths = options.documentLengths ?? documents.map((tokens) => tokens.length);
    const totalLength = this.lengths.reduce((sum, length) => sum + length, 0);
    this.averageLength = documents.length > 0 ? totalLength / documents.length : 0;
    this.termFrequencies = documents.map((tokens) => {
      const frequencies = new Map<string, number>();
      for (const token of tokens) frequencies.set(token, (frequencies.get(token) ?? 0) + 1);
      for (const term of frequencies.keys()) {
        this.documentFrequencies.set(term, (this.documentFrequencies.get(term) ?? 0) + 1);
      }
      return frequencies;
    });
  }

  get size(): number {
    return this.termFrequencies.length;
  }

  /** How many documents hold the term. */
  documentFrequency(term: string): number {
    return this.documentFrequencies.get(term) ?? 0;
  }

  idf(term: string): number {
    const documentFrequency = this.documentFrequencies.get(term) ?? 0;
    return Math.log(1 + (this.size - documentFrequency + 0.5) / (documentFrequency + 0.5));
  }

  score(queryTokens: string[], documentIndex: number): number {
    const frequencies = this.termFrequencies[documentIndex];
    if (!frequencies) throw new RangeError(`no document ${documentIndex}`);
    const lengthRatio = this.averageLength > 0 ? this.lengths[documentIndex] / this.averageLength : 0;
    const normaliser = this.k1 * (1 - this.b + this.b * lengthRatio);
    let total = 0;
    for (const term of queryTokens) {
      const frequency = frequencies.get(term);
      if (!frequency) continue;
      total += (this.idf(term) * frequency * (this.k1 + 1)) / (frequency + normaliser);
    }
    return total;
  }

  /** Best `topK` documents by score; ties go to the earlier document so results are stable. */
  search(queryTokens: string[], topK: number): ScoredDocument[] {
    const scored: ScoredDocument[] = [];
    for (let index = 0; index < this.size; index += 1) {
      scored.push({ index, score: this.score(queryTokens, index) });
    }
    scored.sort((left, right) => right.score - left.score || left.index - right.index);
    return scored.slice(0, Math.max(0, topK));
  }
}
