import type { PrismaClient } from '@sift/persistence';
import type { CorpusStatistics } from './bm25f-scorer';

export interface CorpusSnapshotOptions {
  /** Age after which the snapshot is rebuilt; 0 rebuilds before every use (tests). */
  ttlMs: number;
  /** Above this many documents the lexeme table is not built: every lookup goes to the GIN index instead. */
  maximumDocumentsForLexemeTable: number;
}

export interface CorpusSnapshot extends CorpusStatistics {
  configs: string[];
  /**
   * Document frequency of every lexeme in the shared pages when the snapshot was taken (empty when not built).
   * Shared pages only: a lexeme that only other tenants' private pages contain must look absent to a search, or
   * its effect on the scores would tell a caller that some account's pages contain it.
   */
  documentFrequencies: ReadonlyMap<string, number>;
  takenAt: number;
}

/**
 * Corpus statistics for BM25F: document count, average length, the text search configurations in use and, for
 * corpora small enough to scan, the document frequency of every lexeme (`ts_stat`). Counting one lexeme's
 * documents through the GIN index costs a heap visit per document (about 3 ms per common word on 10,000 pages),
 * which made the idf lookups the largest single cost of a search; the table makes them free. A stale snapshot is
 * served while a fresh one is built in the background, so no search waits for the rebuild after the first.
 */
export class CorpusSnapshotCache {
  private snapshot?: CorpusSnapshot;
  private rebuilding?: Promise<CorpusSnapshot>;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly options: CorpusSnapshotOptions,
  ) {}

  async current(): Promise<CorpusSnapshot> {
    const snapshot = this.snapshot;
    if (!snapshot || this.options.ttlMs <= 0) return this.rebuild();
    if (Date.now() - snapshot.takenAt >= this.options.ttlMs) {
      // A failed background rebuild keeps the stale snapshot; the next search tries again.
      this.rebuild().catch(() => undefined);
    }
    return snapshot;
  }

  private rebuild(): Promise<CorpusSnapshot> {
    if (this.rebuilding) return this.rebuilding;
    this.rebuilding = this.build().finally(() => {
      this.rebuilding = undefined;
    });
    return this.rebuilding;
  }

  private async build(): Promise<CorpusSnapshot> {
    const rows = await this.prisma.$queryRaw<{ config: string; documents: number; words: number }[]>`
      SELECT sift_search_config(language)::text AS config, count(*)::int AS documents,
             coalesce(sum(word_count), 0)::float8 AS words
      FROM documents GROUP BY 1`;
    const documentCount = rows.reduce((sum, row) => sum + row.documents, 0);
    const words = rows.reduce((sum, row) => sum + row.words, 0);
    const documentFrequencies = new Map<string, number>();
    if (documentCount > 0 && documentCount <= this.options.maximumDocumentsForLexemeTable) {
      const lexemes = await this.prisma.$queryRaw<{ word: string; ndoc: number }[]>`
        SELECT word, ndoc FROM ts_stat('SELECT search_vector FROM documents WHERE owner_account_id IS NULL')`;
      for (const lexeme of lexemes) documentFrequencies.set(lexeme.word, lexeme.ndoc);
    }
    this.snapshot = {
      documentCount,
      averageWordCount: documentCount > 0 ? words / documentCount : 0,
      configs: rows.map((row) => row.config),
      documentFrequencies,
      takenAt: Date.now(),
    };
    return this.snapshot;
  }
}
