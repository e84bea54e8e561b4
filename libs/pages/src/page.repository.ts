import { createHash } from 'node:crypto';
import {
  chunkRowsOf,
  conventionalFavicon,
  indexedFieldsOf,
  indexedPageOf,
  markdownHeadings,
  markdownLinks,
  type IndexedPage,
  type IndexedPageInput,
  type WebPage,
} from '@sift/content-extraction';
import { queryRows } from '@sift/persistence';
import { titleNamesOf } from '@sift/ranking';
import type { PrismaClient } from '@sift/persistence';
import { domainOf, normalizeUrl } from './canonical-url';
import { countryCodeOf, countryOfHost } from './country-code';
import { languageCodeOf } from './language-code';
import { guessLanguage } from './language-guess';
import { viewerAccountOf, type DocumentSource, type PageOwner, type StoredPage } from './stored-page';

export interface SaveOptions {
  /** When the page was fetched; default now (imports of older dumps set it). */
  fetchedAt?: Date;
  /**
   * The digest of the response the page was extracted from, when a later fetch of the same response may take the
   * stored page instead of extracting it again (the extractor's, sourceFingerprintOf; see refetched). Absent, the
   * stored page is never reused so.
   */
  sourceFingerprint?: string;
  /**
   * The page's index entry, when the parse that made the page prepared it too (indexedPageOf of indexedPageInputOf
   * of the page): used instead of preparing it again when the page must be indexed.
   */
  indexed?: IndexedPage;
}

type DocumentRow = Awaited<ReturnType<PrismaClient['document']['findUniqueOrThrow']>>;
/** The columns a stored page is read from (storedPageOf). */
type StoredPageRow = Pick<
  DocumentRow,
  | 'id' | 'url' | 'finalUrl' | 'title' | 'markdown' | 'text' | 'isNews' | 'isUnsafe' | 'countryHints' | 'images' | 'contentHash'
  | 'description' | 'language' | 'publishedDate' | 'favicon' | 'fetchedAt' | 'source'
>;
/** StoredPageRow's columns in SQL, under their Prisma names, for a statement that returns a stored page. */
const STORED_PAGE_COLUMNS_SQL = `d.id, d.url, d.final_url AS "finalUrl", d.title, d.markdown, d.text, d.is_news AS "isNews",
               d.is_unsafe AS "isUnsafe", d.country_hints AS "countryHints", d.images, d.content_hash AS "contentHash",
               d.description, d.language, d.published_date AS "publishedDate", d.favicon, d.fetched_at AS "fetchedAt", d.source`;

interface InsertedRow {
  id: string;
  fetched_at: Date;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function storedPageOf(row: StoredPageRow): StoredPage {
  const page: WebPage = {
    url: row.url,
    finalUrl: row.finalUrl,
    title: row.title,
    markdown: row.markdown,
    text: row.text,
    isNews: row.isNews,
    isUnsafe: row.isUnsafe,
    countryHints: row.countryHints,
    images: Array.isArray(row.images) ? (row.images as unknown as WebPage['images']) : [],
    contentHash: row.contentHash,
  };
  if (row.description !== null) page.description = row.description;
  if (row.language !== null) page.language = row.language;
  if (row.publishedDate) page.publishedDate = row.publishedDate.toISOString();
  const favicon = row.favicon ?? conventionalFavicon(row.finalUrl);
  if (favicon) page.favicon = favicon;
  return { id: row.id, fetchedAt: row.fetchedAt, source: row.source, page };
}

/**
 * A document's chunks as a statement writes them (content, word counts and spaced content in $3, $4, $5; the
 * document's language in $2), each with its vector: parsed once, for the chunk rows and for the body of the
 * document's vector (BODY_VECTOR_SQL).
 */
const CHUNK_ROWS_SQL = `chunk_rows AS (
               SELECT c.position::int - 1 AS position, c.content, c.words,
                      to_tsvector(sift_search_config($2::text), coalesce(c.spaced, c.content)) AS vector
               FROM unnest($3::text[], $4::int[], $5::text[]) WITH ORDINALITY AS c(content, words, spaced, position))`;

/**
 * The body (field D) of a document's vector: its chunks' vectors end to end, the text not parsed a second time
 * (sift_body_vector, migration 20261124110000). Reads CHUNK_ROWS_SQL's rows.
 */
const BODY_VECTOR_SQL = 'sift_body_vector($3::text[], ARRAY(SELECT vector FROM chunk_rows ORDER BY position))';

/**
 * Writes CHUNK_ROWS_SQL's chunks to the document, new positions inserted or replaced, positions past the new end
 * removed. `documentId` is the SQL of the document's id: the id a preceding CTE returned (NULL when that CTE wrote
 * nothing: then no chunk is written).
 */
function chunksReplacedSql(documentId: string): string {
  return `written_chunks AS (
               INSERT INTO document_chunks (document_id, position, content, word_count, vector)
               SELECT ${documentId}, c.position, c.content, c.words, c.vector FROM chunk_rows c
               WHERE ${documentId} IS NOT NULL
               ON CONFLICT (document_id, position) DO UPDATE
                 SET content = EXCLUDED.content, word_count = EXCLUDED.word_count, vector = EXCLUDED.vector
               RETURNING 1),
             removed_chunks AS (
               DELETE FROM document_chunks WHERE document_id = ${documentId} AND position >= cardinality($3::text[])
               RETURNING 1)`;
}

/**
 * Writes the page's links (`links`: the SQL of a text[] of normalised target URLs) as the document's rows of the link
 * graph (migration 20261125000000): links it no longer has removed, new ones added, each row carrying the owner the
 * ranking's count filters by (`owner`: its SQL). `documentId` as in chunksReplacedSql. Removing only the links not in
 * the new list keeps the two statements off each other's rows (one statement cannot delete and insert the same row).
 */
function linksReplacedSql(documentId: string, links: string, owner: string): string {
  return `removed_links AS (
               DELETE FROM document_links l WHERE l.document_id = ${documentId} AND l.target_url <> ALL(${links})
               RETURNING 1),
             written_links AS (
               INSERT INTO document_links (document_id, target_url, owner_account_id)
               SELECT ${documentId}, t.url, ${owner} FROM unnest(${links}) AS t(url)
               WHERE ${documentId} IS NOT NULL
               ON CONFLICT (document_id, target_url) DO NOTHING
               RETURNING 1)`;
}

/**
 * The longest URL the store keys, a page's or a link target's. A b-tree entry (the URL indexes) holds at most about 2,700
 * bytes, fewer or more depending on how well the URL compresses: a page under a longer URL (tracking parameters, data
 * in the query) is not stored, and a longer link target is left out of the link graph, so a hostile page's
 * 5,000-character link does not make its page unstorable. Normalised URLs are ASCII: characters are bytes.
 */
const MAX_URL_CHARACTERS = 2000;

/** SQL: the account named by the parameter (NULL: the operator) keeps what it fetches (no zero data retention). */
function retainsDataSql(accountParameter: string): string {
  return `(${accountParameter}::uuid IS NULL OR EXISTS (SELECT 1 FROM accounts WHERE id = ${accountParameter}::uuid AND NOT zero_data_retention))`;
}

/**
 * The pages a page links to as the link graph keys them: its content's links (IndexedPage.links) normalised as the
 * store keys pages, each once, the page itself (under its URL or the one it redirected to) left out: a page does not
 * vouch for itself.
 */
/** Postgres's md5() of the same text: its UTF-8 bytes' MD5 in hexadecimal. */
function md5Hex(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex');
}

function storedLinksOf(links: readonly string[], url: string, finalUrl: string): string[] {
  const stored = new Set<string>();
  for (const link of links) {
    try {
      const normalized = normalizeUrl(link);
      if (normalized.length <= MAX_URL_CHARACTERS) stored.add(normalized);
    } catch {
      // Not an absolute http(s) URL after all: not a page the index could hold.
    }
  }
  stored.delete(url);
  stored.delete(finalUrl);
  return [...stored];
}

/**
 * The version of what a stored page's index entry is made of: sift_document_vector's fields, indexedPageOf (summary
 * line, headings, segmenting, word count, chunking) and the postings. Bump it whenever one of them changes, so a page
 * stored again with the same content is indexed again instead of only refreshed (migrations 20261124050000,
 * 20261124070000). 2: "<style" and "<script" in a page's text no longer hide the rest of its chunk (indexedPageOf).
 * 3: dotted names ("user.email") are indexed whole and as their parts (searchableText). 4: the page's links are
 * recorded (migration 20261125000000). 5: the names its title gives it (titleNamesOf, migration 20261126000000).
 */
const INDEX_VERSION = 5;

function parseDate(value: string | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export interface PageRepositoryOptions {
  /**
   * SHARED_INDEX: pages fetched through the API are stored shared (every account's searches and cache see them)
   * instead of private to the fetching account; for an install that serves one team. Default false.
   */
  sharedIndex?: boolean;
  /**
   * Prepares a page for the index (headings, summary line, spaced fields, word count, chunks: indexedPageOf). The
   * workers pass their parsing pool's, so a page of megabytes is segmented and chunked off their event loop; by
   * default it runs inline (imports, tests).
   */
  prepare?: (input: IndexedPageInput) => Promise<IndexedPage>;
}

/**
 * The one owner of stored pages: every successful extraction, crawl page and import, keyed by normalised URL and
 * owner. It is the extraction cache (getFresh) and the corpus of the local index (the search_vector column indexes
 * each row). Zero data retention and visibility are decided here, from the owner, so no producer can store what it
 * must not or show a page to an account that may not see it:
 * - a page an account fetched is private to that account (owner_account_id), unless SHARED_INDEX pools them;
 * - the operator's pages (imports, admin crawls) are shared (owner_account_id NULL);
 * - a keyless fetch is not stored at all.
 */
export class PageRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly options: PageRepositoryOptions = {},
  ) {}

  /**
   * Whose copy an owner's pages are stored as: the account (its retention is read in the writing statements) and
   * the row's owner (NULL, shared, for the operator or with SHARED_INDEX). Null for a caller whose pages are never
   * stored: keyless, or an id that is not an account's.
   */
  private keeperOf(owner: PageOwner): { accountId: string | null; ownerAccountId: string | null } | null {
    if (owner === 'keyless') return null;
    const accountId = typeof owner === 'object' ? owner.accountId : null;
    if (accountId !== null && !UUID.test(accountId)) return null;
    return { accountId, ownerAccountId: this.options.sharedIndex ? null : accountId };
  }

  private prepared(input: IndexedPageInput): Promise<IndexedPage> {
    return this.options.prepare ? this.options.prepare(input) : Promise.resolve(indexedPageOf(input));
  }

  /**
   * Inserts or replaces the page stored under its URL for its owner. Returns null, storing nothing, for a keyless
   * caller, for an account with zero data retention (or no account at all: the flag is read in the writing statement
   * itself) and for a page whose URL is longer than MAX_URL_CHARACTERS (the URL it was asked under: its key).
   */
  async save(owner: PageOwner, page: WebPage, source: DocumentSource, options: SaveOptions = {}): Promise<StoredPage | null> {
    const keeper = this.keeperOf(owner);
    if (!keeper) return null;
    const { accountId, ownerAccountId } = keeper;
    const url = normalizeUrl(page.url);
    const finalUrl = page.finalUrl ? normalizeUrl(page.finalUrl) : url;
    if (url.length > MAX_URL_CHARACTERS) return null;
    const domain = domainOf(finalUrl);
    const title = page.title.trim();
    const text = page.text;
    const language = languageCodeOf(page.language) ?? guessLanguage(`${title}\n${text}`) ?? null;
    const hints = new Set(page.countryHints.map((hint) => countryCodeOf(hint)).filter((hint) => hint !== undefined));
    const tldCountry = countryOfHost(domain);
    if (tldCountry) hints.add(tldCountry);
    const images = page.images.map((image) => ({ url: image.url, alt: image.alt ?? '' }));
    const publishedDate = parseDate(page.publishedDate);
    const markdown = page.markdown || text;
    const metaDescription = page.description ?? null;
    const fetchedAt = options.fetchedAt ?? null;
    const sourceFingerprint = options.sourceFingerprint ?? null;
    // Stored before with the same index inputs (text, markdown, title, language, the page's own description) by
    // this INDEX_VERSION, and the same metadata: the index entry would come out the same, so the page is only
    // refreshed (fetched_at, source, and the response digest and icon, which no index reads), prepared for nothing,
    // and the row's new version touches no index. Text and markdown are compared by their MD5 digests: the statement
    // that stores a new page sends them once, not this one too (tens of kilobytes a page for a row that is not there).
    const [refreshed] = await queryRows<InsertedRow>(this.prisma, {
      name: 'sift_documents_refresh',
      text: `UPDATE documents d SET fetched_at = COALESCE($3::timestamptz, now()), source = $4::"DocumentSource",
                                    source_fingerprint = $20::text, favicon = $21::text
             WHERE d.url = $1 AND d.owner_account_id IS NOT DISTINCT FROM $2::uuid AND d.index_version = $5::int
               AND d.content_hash = $6 AND md5(d.text) = $7 AND md5(d.markdown) = $8 AND d.title = $9
               AND d.language IS NOT DISTINCT FROM $10
               AND CASE WHEN $11::text IS NULL THEN NOT d.description_from_page
                        ELSE d.description_from_page AND d.description = $11::text END
               AND d.final_url = $12 AND d.domain = $13 AND d.published_date IS NOT DISTINCT FROM $14::timestamptz
               AND d.is_news = $15 AND d.is_unsafe = $16 AND d.country_hints = $17::text[] AND d.images = $18::jsonb
               AND ${retainsDataSql('$19')}
             RETURNING d.id, d.fetched_at`,
      values: [
        url, ownerAccountId, fetchedAt, source, INDEX_VERSION, page.contentHash, md5Hex(text), md5Hex(markdown), title, language, metaDescription,
        finalUrl, domain, publishedDate, page.isNews, page.isUnsafe, [...hints], JSON.stringify(images), accountId,
        sourceFingerprint, page.favicon ?? null,
      ],
    });
    // The description field is the page's own meta description when it has one, else its summary line.
    const indexed = refreshed ? null : (options.indexed ?? (await this.prepared({ title, description: metaDescription, markdown, text })));
    // The page and its chunks in one statement: one round trip and one commit, and never a page without its chunks.
    // Parameters $2 to $5 are the ones the chunk rows read (CHUNK_ROWS_SQL); the body of the page's vector is made
    // from their vectors.
    const [row] = indexed === null ? [refreshed] : await queryRows<InsertedRow>(this.prisma, {
      name: 'sift_documents_save_with_chunks',
      text: `WITH ${CHUNK_ROWS_SQL},
             saved AS (
               INSERT INTO documents (id, url, final_url, domain, title, description, markdown, text, language, published_date,
                                      fetched_at, content_hash, is_news, is_unsafe, country_hints, images, source, word_count,
                                      owner_account_id, search_vector, index_version, description_from_page, title_names,
                                      source_fingerprint, favicon)
               SELECT gen_random_uuid(), $1, $6, $7, $8, $9, $10, $11, $2, $12::timestamptz, COALESCE($13::timestamptz, now()), $14, $15, $16,
                      $17::text[], $18::jsonb, $19::"DocumentSource", $20::int, $22::uuid,
                      sift_document_vector($2, coalesce($23::text, $8), coalesce($24::text, $9), $25::text, ${BODY_VECTOR_SQL}),
                      $26::int, $27::boolean, $29::text[], $30::text, $31::text
               WHERE ${retainsDataSql('$21')}
               ON CONFLICT (url, owner_account_id) DO UPDATE SET
                 final_url = EXCLUDED.final_url, domain = EXCLUDED.domain, title = EXCLUDED.title,
                 description = EXCLUDED.description, markdown = EXCLUDED.markdown, text = EXCLUDED.text,
                 language = EXCLUDED.language, published_date = EXCLUDED.published_date, fetched_at = EXCLUDED.fetched_at,
                 content_hash = EXCLUDED.content_hash, is_news = EXCLUDED.is_news, is_unsafe = EXCLUDED.is_unsafe,
                 country_hints = EXCLUDED.country_hints, images = EXCLUDED.images, source = EXCLUDED.source,
                 word_count = EXCLUDED.word_count, search_vector = EXCLUDED.search_vector, index_version = EXCLUDED.index_version,
                 description_from_page = EXCLUDED.description_from_page, title_names = EXCLUDED.title_names,
                 source_fingerprint = EXCLUDED.source_fingerprint, favicon = EXCLUDED.favicon
               RETURNING id, fetched_at),
             ${chunksReplacedSql('(SELECT id FROM saved)')},
             ${linksReplacedSql('(SELECT id FROM saved)', '$28::text[]', '$22::uuid')}
             SELECT id, fetched_at FROM saved`,
      values: [
        url,
        language,
        ...indexed.chunks,
        finalUrl,
        domain,
        title,
        indexed.description,
        markdown,
        text,
        publishedDate,
        fetchedAt,
        page.contentHash,
        page.isNews,
        page.isUnsafe,
        [...hints],
        JSON.stringify(images),
        source,
        indexed.wordCount,
        accountId,
        ownerAccountId,
        // The spaced title and description and the headings; the body is read from the chunks.
        ...indexed.spaced,
        INDEX_VERSION,
        metaDescription !== null,
        storedLinksOf(indexed.links, url, finalUrl),
        indexed.titleNames,
        sourceFingerprint,
        page.favicon ?? null,
      ],
    });
    if (!row) return null;
    const stored: WebPage = {
      ...page,
      url,
      finalUrl,
      title,
      markdown,
      countryHints: [...hints],
      images,
    };
    if (language) stored.language = language;
    else delete stored.language;
    if (publishedDate) stored.publishedDate = publishedDate.toISOString();
    else delete stored.publishedDate;
    const favicon = page.favicon ?? conventionalFavicon(finalUrl);
    if (favicon) stored.favicon = favicon;
    else delete stored.favicon;
    return { id: row.id, fetchedAt: new Date(row.fetched_at), source, page: stored };
  }

  /**
   * The chunks search results show, cut once here instead of on every search (migration 20261122040000): new
   * positions are written, positions past the new end removed, and the body of the document's vector made again from
   * them (its title, description and headings kept), in one statement.
   */
  private async replaceChunks(documentId: string, language: string | null, text: string): Promise<void> {
    await queryRows(this.prisma, {
      name: 'sift_document_chunks_replace',
      text: `WITH ${CHUNK_ROWS_SQL},
             indexed AS (
               UPDATE documents SET search_vector = ts_filter(search_vector, '{a,b,c}') || setweight(${BODY_VECTOR_SQL}, 'D')
               WHERE id = $1::uuid
               RETURNING id),
             ${chunksReplacedSql('(SELECT id FROM indexed)')}
             SELECT 1`,
      values: [documentId, language, ...chunkRowsOf(text)],
    });
  }

  /**
   * Cuts the stored documents that have no chunks yet (pages stored before migration 20261122040000), a batch at
   * a time in id order, and returns how many it cut; onBatch reports the running total. Searches cut such pages
   * on every request until this (or storing them again) has run. Their vectors' body is made from the new chunks, as
   * a save makes it.
   */
  async chunkUnchunked(options: { batchSize?: number; onBatch?: (chunked: number) => void } = {}): Promise<number> {
    let chunked = 0;
    await this.forEachBatch<{ id: string; language: string | null; text: string }>(
      'sift_documents_unchunked',
      `SELECT d.id, d.language, d.text FROM documents d
       WHERE d.id > $1::uuid AND NOT EXISTS (SELECT 1 FROM document_chunks c WHERE c.document_id = d.id)
       ORDER BY d.id LIMIT $2::int`,
      options.batchSize ?? 200,
      async (rows) => {
        for (const row of rows) await this.replaceChunks(row.id, row.language, row.text);
        chunked += rows.length;
        options.onBatch?.(chunked);
      },
    );
    return chunked;
  }

  /**
   * Indexes again the stored pages whose index entry predates what the store now writes: pages in Chinese, Japanese,
   * Thai or another script written without spaces (stored before migration 20261124010000, each such sentence one
   * lexeme no query word matches), pages with headings (stored before migration 20261124030000, which made the
   * headings a field) and pages with dotted names ("user.email", one lexeme before INDEX_VERSION 3), and records every
   * page's links (stored before INDEX_VERSION 4, migration 20261125000000) and its title's names (INDEX_VERSION 5,
   * migration 20261126000000). Reads every page once, a batch at a time in id order, and returns how many it indexed
   * again; onBatch reports pages read and indexed so far. Safe to repeat.
   */
  async resegment(options: { batchSize?: number; onBatch?: (read: number, indexed: number) => void } = {}): Promise<number> {
    let read = 0;
    let indexed = 0;
    await this.forEachBatch<{ id: string; url: string; final_url: string; language: string | null; title: string; description: string | null; markdown: string; text: string }>(
      'sift_documents_resegment_batch',
      `SELECT d.id, d.url, d.final_url, d.language, d.title, d.description, d.markdown, d.text FROM documents d
       WHERE d.id > $1::uuid ORDER BY d.id LIMIT $2::int`,
      options.batchSize ?? 200,
      async (rows) => {
        for (const row of rows) {
          // The links and the title's names: cheap, so written for every page (stored before INDEX_VERSION 4 and 5).
          await queryRows(this.prisma, {
            name: 'sift_documents_relink',
            text: `WITH ${linksReplacedSql('$1::uuid', '$2::text[]', '(SELECT owner_account_id FROM documents WHERE id = $1::uuid)')},
                   named AS (UPDATE documents SET title_names = $3::text[] WHERE id = $1::uuid AND title_names <> $3::text[])
                   SELECT 1`,
            values: [row.id, storedLinksOf(markdownLinks(row.markdown), row.url, row.final_url), titleNamesOf(row.title)],
          });
          const chunks = chunkRowsOf(row.text);
          const fields = indexedFieldsOf(row.title, row.description, markdownHeadings(row.markdown), chunks);
          const [spacedTitle, spacedDescription, headings] = fields.spaced;
          const segmented = spacedTitle !== null || spacedDescription !== null || chunks[2].some((spaced) => spaced !== null);
          if (!segmented && headings === '') continue;
          // The vector and the chunks its body is made of, in one statement as a save writes them.
          await queryRows(this.prisma, {
            name: 'sift_documents_resegment',
            text: `WITH ${CHUNK_ROWS_SQL},
                   indexed AS (
                     UPDATE documents
                     SET search_vector = sift_document_vector(language, coalesce($6::text, title), coalesce($7::text, description), $8::text, ${BODY_VECTOR_SQL}),
                         word_count = $9::int
                     WHERE id = $1::uuid
                     RETURNING id),
                   ${chunksReplacedSql('(SELECT id FROM indexed)')}
                   SELECT 1`,
            values: [row.id, row.language, ...chunks, spacedTitle, spacedDescription, headings, fields.wordCount],
          });
          indexed++;
        }
        read += rows.length;
        options.onBatch?.(read, indexed);
      },
    );
    return indexed;
  }

  /** Runs `handle` on the rows of `text` ($1: the last id handled, $2: the batch size), a batch at a time in id order. */
  private async forEachBatch<Row extends { id: string }>(
    name: string,
    text: string,
    batchSize: number,
    handle: (rows: Row[]) => Promise<void>,
  ): Promise<void> {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows = await queryRows<Row>(this.prisma, { name, text, values: [after, batchSize] });
      if (rows.length === 0) return;
      await handle(rows);
      after = rows[rows.length - 1].id;
    }
  }

  /**
   * The extraction cache: the freshest copy of the page fetched within maxAgeMs that `viewer` may see (its own or
   * the shared one, never another account's), else null.
   */
  async getFresh(viewer: PageOwner, url: string, maxAgeMs: number, now: Date = new Date()): Promise<StoredPage | null> {
    return (await this.getFreshMany(viewer, [url], maxAgeMs, now)).get(url) ?? null;
  }

  /** getFresh for many URLs in one statement: each URL asked (as given) that has such a copy, with it. */
  async getFreshMany(viewer: PageOwner, urls: readonly string[], maxAgeMs: number, now: Date = new Date()): Promise<Map<string, StoredPage>> {
    const askedAs = new Map<string, string[]>();
    for (const url of urls) {
      let normalized: string;
      try {
        normalized = normalizeUrl(url);
      } catch {
        continue;
      }
      askedAs.set(normalized, [...(askedAs.get(normalized) ?? []), url]);
    }
    const found = new Map<string, StoredPage>();
    if (askedAs.size === 0) return found;
    const viewerAccountId = viewerAccountOf(viewer);
    const rows = await this.prisma.document.findMany({
      where: {
        url: { in: [...askedAs.keys()] },
        fetchedAt: { gte: new Date(now.getTime() - maxAgeMs) },
        OR: viewerAccountId === null ? [{ ownerAccountId: null }] : [{ ownerAccountId: null }, { ownerAccountId: viewerAccountId }],
      },
      orderBy: { fetchedAt: 'desc' },
    });
    // Newest first: a URL's first row is its freshest copy.
    for (const row of rows) for (const url of askedAs.get(row.url) ?? []) if (!found.has(url)) found.set(url, storedPageOf(row));
    return found;
  }

  /**
   * The page this owner's save would replace, when it was extracted from a response with this digest
   * (SaveOptions.sourceFingerprint) and indexed by this INDEX_VERSION: marked fetched now, as saving it again
   * unchanged would, and returned for the caller to use instead of extracting the same response again. Null when there
   * is none, and whenever save would store nothing (a keyless caller, an account with zero data retention, a URL too
   * long to key).
   */
  async refetched(owner: PageOwner, url: string, sourceFingerprint: string, source: DocumentSource): Promise<StoredPage | null> {
    const keeper = this.keeperOf(owner);
    if (!keeper) return null;
    let normalized: string;
    try {
      normalized = normalizeUrl(url);
    } catch {
      return null;
    }
    if (normalized.length > MAX_URL_CHARACTERS) return null;
    // One statement marks the page fetched and returns it: no save can come between the two.
    const [row] = await queryRows<StoredPageRow>(this.prisma, {
      name: 'sift_documents_refetched',
      text: `UPDATE documents d SET fetched_at = now(), source = $4::"DocumentSource"
             WHERE d.url = $1 AND d.owner_account_id IS NOT DISTINCT FROM $2::uuid AND d.source_fingerprint = $3
               AND d.index_version = $5::int
               AND ${retainsDataSql('$6')}
             RETURNING ${STORED_PAGE_COLUMNS_SQL}`,
      values: [normalized, keeper.ownerAccountId, sourceFingerprint, source, INDEX_VERSION, keeper.accountId],
    });
    return row ? storedPageOf(row) : null;
  }

  /** The copy stored under the URL for exactly this owner: the account's private copy, or the shared one. */
  async findByUrl(url: string, owner: PageOwner = 'operator'): Promise<StoredPage | null> {
    const ownerAccountId = this.options.sharedIndex ? null : viewerAccountOf(owner);
    const row = await this.prisma.document.findFirst({ where: { url: normalizeUrl(url), ownerAccountId } });
    return row ? storedPageOf(row) : null;
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
