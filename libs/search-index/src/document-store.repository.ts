import { createHash } from 'node:crypto';
import { queryRows } from '@sift/persistence';
import type { PrismaClient } from '@sift/persistence';
import { chunkText, tokenize } from '@sift/ranking';
import { domainOf, normalizeUrl } from './canonical-url';
import { countryCodeOf, countryOfHost } from './country-code';
import { languageCodeOf } from './language-code';
import { guessLanguage } from './language-guess';
import type { ImageReference } from './search-candidate';
import type { DocumentInput, DocumentSource, StoredDocument } from './stored-document';

export interface SaveOptions {
  /** The requesting account keeps nothing: the document is not stored. */
  zeroDataRetention?: boolean;
}

type DocumentRow = Awaited<ReturnType<PrismaClient['document']['findUniqueOrThrow']>>;

function toStoredDocument(row: DocumentRow): StoredDocument {
  return {
    id: row.id,
    url: row.url,
    finalUrl: row.finalUrl,
    domain: row.domain,
    title: row.title,
    description: row.description,
    markdown: row.markdown,
    text: row.text,
    language: row.language,
    publishedDate: row.publishedDate,
    fetchedAt: row.fetchedAt,
    contentHash: row.contentHash,
    isNews: row.isNews,
    isUnsafe: row.isUnsafe,
    countryHints: row.countryHints,
    images: Array.isArray(row.images) ? (row.images as unknown as ImageReference[]) : [],
    source: row.source,
    wordCount: row.wordCount,
  };
}

function parseDate(value: Date | string | null | undefined): Date | null {
  if (!value) return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * The document store: every successful extraction, crawl page and import, keyed by normalised URL. It is the
 * extraction cache (getFresh) and the corpus of the local index (the search_vector column indexes each row).
 */
export class DocumentStore {
  constructor(private readonly prisma: PrismaClient) {}

  /** Inserts or replaces the document stored under the URL; null when zero data retention forbids storing. */
  async save(input: DocumentInput, options: SaveOptions = {}): Promise<StoredDocument | null> {
    if (options.zeroDataRetention) return null;
    const url = normalizeUrl(input.url);
    const finalUrl = input.finalUrl ? normalizeUrl(input.finalUrl) : url;
    const domain = domainOf(finalUrl);
    const title = input.title?.trim() ?? '';
    const text = input.text;
    const language = languageCodeOf(input.language) ?? guessLanguage(`${title}\n${text}`) ?? null;
    const hints = new Set((input.countryHints ?? []).map((hint) => countryCodeOf(hint)).filter((hint) => hint !== undefined));
    const tldCountry = countryOfHost(domain);
    if (tldCountry) hints.add(tldCountry);
    const data = {
      finalUrl,
      domain,
      title,
      description: input.description ?? null,
      markdown: input.markdown ?? text,
      text,
      language,
      publishedDate: parseDate(input.publishedDate),
      fetchedAt: input.fetchedAt ?? new Date(),
      contentHash: createHash('sha256').update(text).digest('hex'),
      isNews: input.isNews ?? false,
      isUnsafe: input.isUnsafe ?? false,
      countryHints: [...hints],
      images: (input.images ?? []).map((image) => ({ url: image.url, alt: image.alt ?? '' })),
      source: input.source,
      wordCount: tokenize(`${title} ${input.description ?? ''} ${text}`).length,
    };
    const row = await this.prisma.document.upsert({ where: { url }, create: { url, ...data }, update: data });
    await this.replaceChunks(row.id, language, text);
    return toStoredDocument(row);
  }

  /**
   * The chunks search results show, cut once here instead of on every search (migration 20261122040000): new
   * positions are written, positions past the new end removed, in one statement.
   */
  private async replaceChunks(documentId: string, language: string | null, text: string): Promise<void> {
    const chunks = chunkText(text);
    await queryRows(this.prisma, {
      name: 'sift_document_chunks_replace',
      text: `WITH written AS (
               INSERT INTO document_chunks (document_id, position, content, word_count, vector)
               SELECT $1::uuid, c.position::int - 1, c.content, c.words, to_tsvector(sift_search_config($2::text), c.content)
               FROM unnest($3::text[], $4::int[]) WITH ORDINALITY AS c(content, words, position)
               ON CONFLICT (document_id, position) DO UPDATE
                 SET content = EXCLUDED.content, word_count = EXCLUDED.word_count, vector = EXCLUDED.vector
               RETURNING 1)
             DELETE FROM document_chunks WHERE document_id = $1::uuid AND position >= cardinality($3::text[])`,
      values: [documentId, language, chunks, chunks.map((chunk) => tokenize(chunk).length)],
    });
  }

  /**
   * Cuts the stored documents that have no chunks yet (pages stored before migration 20261122040000), a batch at
   * a time in id order, and returns how many it cut; onBatch reports the running total. Searches cut such pages
   * on every request until this (or storing them again) has run.
   */
  async chunkUnchunked(options: { batchSize?: number; onBatch?: (chunked: number) => void } = {}): Promise<number> {
    const batchSize = options.batchSize ?? 200;
    let after = '00000000-0000-0000-0000-000000000000';
    let chunked = 0;
    for (;;) {
      const rows = await queryRows<{ id: string; language: string | null; text: string }>(this.prisma, {
        name: 'sift_documents_unchunked',
        text: `SELECT d.id, d.language, d.text FROM documents d
               WHERE d.id > $1::uuid AND NOT EXISTS (SELECT 1 FROM document_chunks c WHERE c.document_id = d.id)
               ORDER BY d.id LIMIT $2::int`,
        values: [after, batchSize],
      });
      if (rows.length === 0) return chunked;
      for (const row of rows) await this.replaceChunks(row.id, row.language, row.text);
      chunked += rows.length;
      after = rows[rows.length - 1].id;
      options.onBatch?.(chunked);
    }
  }

  /** The stored document when it was fetched within maxAgeMs, else null: the extraction cache. */
  async getFresh(url: string, maxAgeMs: number, now: Date = new Date()): Promise<StoredDocument | null> {
    let normalized: string;
    try {
      normalized = normalizeUrl(url);
    } catch {
      return null;
    }
    const row = await this.prisma.document.findFirst({
      where: { url: normalized, fetchedAt: { gte: new Date(now.getTime() - maxAgeMs) } },
    });
    return row ? toStoredDocument(row) : null;
  }

  async findByUrl(url: string): Promise<StoredDocument | null> {
    const row = await this.prisma.document.findUnique({ where: { url: normalizeUrl(url) } });
    return row ? toStoredDocument(row) : null;
  }

  async count(): Promise<number> {
    return this.prisma.document.count();
  }

  async countBySource(): Promise<Record<DocumentSource, number>> {
    const groups = await this.prisma.document.groupBy({ by: ['source'], _count: { _all: true } });
    const counts: Record<DocumentSource, number> = { extract: 0, crawl: 0, import: 0 };
    for (const group of groups) counts[group.source] = group._count._all;
    return counts;
  }
}
