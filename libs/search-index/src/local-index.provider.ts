import { queryRows } from '@sift/persistence';
import type { PrismaClient } from '@sift/persistence';
import { DEFAULT_BM25F, inverseDocumentFrequency } from './bm25f-scorer';
import type { Bm25fParameters, CorpusStatistics } from './bm25f-scorer';
import { CorpusSnapshotCache } from './corpus-snapshot';
import type { CorpusSnapshot } from './corpus-snapshot';
import { countryCodeOf } from './country-code';
import { normalizeDomainEntry } from './domain-match';
import { languageCodeOf } from './language-code';
import { quotedPhrases } from './query-phrases';
import type { ImageReference, SearchCandidate } from './search-candidate';
import type { SearchProvider } from './search-provider';
import type { SearchQuery } from './search-query';
import { viewerAccountOf } from './stored-page';
import { timeWindowOf } from './time-window';
import { anyLexemeQuery, tsqueryOperand } from './tsquery-literal';

export interface LocalIndexOptions {
  /**
   * How long corpus statistics (document count, lengths, languages, lexeme document frequencies) are reused;
   * they move slowly. Default 60 s; lexemes missing from the snapshot (new pages) are still counted live.
   */
  statisticsTtlMs?: number;
  /** Corpora larger than this skip the lexeme table (a full `ts_stat` scan) and count each lexeme live. */
  lexemeTableMaximumDocuments?: number;
  /**
   * Candidates re-scored exactly with BM25F. Default: max(30, 3 × maxResults) from the postings (unfiltered
   * searches), max(40, 4 × maxResults) through the GIN index (filtered ones), whose coarse pre-ranking is weaker:
   * there nDCG@10 on Cranfield (top 20) is 0.372 at 100 and 60 candidates, 0.370 at 40 and 0.346 at 20. Each
   * candidate costs a detoasted tsvector and its occurrences.
   */
  candidateLimit?: number;
  bm25f?: Bm25fParameters;
  /**
   * Unfiltered searches take candidates from the best postings of each query lexeme: this many per lexeme
   * (default 150). More finds pages whose strength is spread over many query words, at a cost per posting. On the
   * 10,000-page latency corpus, overlap@10 with an exhaustive BM25F ranking is 0.696 at 150 postings and 30
   * candidates, 0.676 at 100 and 40 (the same time per query), 0.637 at 100 and 30; the GIN path gets 0.62–0.63.
   */
  postingsPerLexeme?: number;
}

const DEFAULT_POSTINGS_PER_LEXEME = 150;

interface QueryLexemeRow {
  config: string;
  lexeme: string;
  document_frequency: number;
}

interface RankedDocumentRow {
  id: string;
  relevance: number;
  final_url: string;
  title: string;
  chunks: string[] | null;
  text: string;
  markdown: string | null;
  images: unknown;
  published_date: Date | null;
  language: string | null;
  content_hash: string;
}

/**
 * Candidates from the impact-ordered postings (migration 20261122030000): the `:postings_per_lexeme` best
 * postings of each query lexeme the viewer may see (shared, or its own: the owner is INCLUDEd in the index,
 * migration 20261123020000, so other tenants' postings are skipped inside the index-only scan), summed as
 * idf × impact, and the best `:limit` of those pages, scored exactly below. Used when no filter narrows the corpus (a filter could remove every page of those short
 * lists).
 */
const POSTINGS_CANDIDATES_SQL = `
  approximate AS (
    SELECT p.document_id AS id, sum(t.idf * p.impact) AS approximate
    FROM unnest(:lexemes::text[], :idfs::float8[]) AS t(lexeme, idf)
    CROSS JOIN LATERAL (
      SELECT e.document_id, e.impact FROM document_postings e
      WHERE e.lexeme = t.lexeme AND (e.owner_account_id IS NULL OR e.owner_account_id = :viewer::uuid)
      ORDER BY e.impact DESC
      LIMIT :postings_per_lexeme::int) AS p
    GROUP BY p.document_id
    ORDER BY 2 DESC, 1
    LIMIT :limit::int
  ),
  candidates AS (
    SELECT d.id, sift_search_config(d.language)::text AS config, d.word_count, d.language, d.domain, d.country_hints
    FROM approximate a
    JOIN documents d ON d.id = a.id
  )`;

/**
 * Candidates through the GIN index, for filtered searches: pages passing every filter that contain one of the
 * match lexemes, ordered by the idf mass of the query lexemes they contain (each page's tsvector detoasted once:
 * OFFSET 0 keeps that subquery from being inlined, and deleting the empty lexeme hands the vector back as is);
 * the best `:limit` go on.
 */
const FILTERED_CANDIDATES_SQL = `
  candidates AS (
    SELECT d.id, sift_search_config(d.language)::text AS config, d.word_count, d.language, d.domain, d.country_hints,
           (SELECT coalesce(sum(t.idf), 0) FROM unnest(:operands::tsquery[], :idfs::float8[]) AS t(operand, idf)
            WHERE v.vector @@ t.operand) AS coarse
    FROM documents d
    CROSS JOIN LATERAL (SELECT ts_delete(d.search_vector, ''::text) AS vector OFFSET 0) AS v
    WHERE d.search_vector @@ :match::tsquery
      AND (d.owner_account_id IS NULL OR d.owner_account_id = :viewer::uuid)
      AND (:include_domains::text[] IS NULL OR EXISTS (
            SELECT 1 FROM unnest(:include_domains::text[]) AS x(domain)
            WHERE d.domain = x.domain OR right(d.domain, length(x.domain) + 1) = '.' || x.domain))
      AND (:exclude_domains::text[] IS NULL OR NOT EXISTS (
            SELECT 1 FROM unnest(:exclude_domains::text[]) AS x(domain)
            WHERE d.domain = x.domain OR right(d.domain, length(x.domain) + 1) = '.' || x.domain))
      AND (:after::timestamptz IS NULL OR coalesce(d.published_date, d.fetched_at) >= :after::timestamptz)
      AND (:before::timestamptz IS NULL OR coalesce(d.published_date, d.fetched_at) < :before::timestamptz)
      AND (:language::text IS NULL OR d.language = :language::text)
      AND (:any_topic::boolean OR d.is_news)
      AND (:unsafe_allowed::boolean OR NOT d.is_unsafe)
      AND NOT EXISTS (SELECT 1 FROM unnest(:phrases::text[]) AS p(phrase)
                      WHERE strpos(lower(d.title || ' ' || coalesce(d.description, '') || ' ' || d.text), p.phrase) = 0)
    ORDER BY coarse DESC, d.id
    LIMIT :limit::int
  )`;

/**
 * From candidates to the ranked, loaded results, the same for both candidate sources.
 *
 * scored: BM25F, divided by the best score a page could reach so relevance is in [0, 1], then the language,
 * country and domain boosts. Per candidate, over the query's lexemes of its text search configuration: the
 * lexeme's field-weighted frequency (title 2, description 1.5, body 1) recovered from its posting's impact
 * (sift_posting_frequency, migration 20261123000000), one index-only probe per (candidate, lexeme) pair (LIMIT 1
 * keeps the planner on that probe instead of reading every posting of the lexeme), saturated with k1 and the
 * page's length against the live average; a lexeme without a posting adds nothing.
 */
const SCORING_SQL = `
  scored AS (
    SELECT c.id,
           (SELECT sum(q.idf * coalesce(f.saturated, 0)) / nullif(sum(q.idf), 0)
            FROM unnest(:term_configs::text[], :term_lexemes::text[], :term_idfs::float8[]) AS q(config, lexeme, idf)
            LEFT JOIN LATERAL (
              SELECT t.frequency / (t.frequency + :k1::float8 * (1 - :b::float8 + :b::float8 * coalesce(c.word_count / :average_word_count::float8, 1))) AS saturated
              FROM document_postings e
              CROSS JOIN LATERAL (SELECT sift_posting_frequency(e.impact, c.word_count) AS frequency) AS t
              WHERE e.document_id = c.id AND e.lexeme = q.lexeme
              LIMIT 1) AS f ON true
            WHERE q.config = c.config)
             * CASE WHEN c.language = :boost_language::text THEN :language_boost::float8 ELSE 1 END
             * CASE WHEN :boost_country::text = ANY(c.country_hints) THEN :country_boost::float8 ELSE 1 END
             * CASE WHEN EXISTS (SELECT 1 FROM unnest(:boost_domains::text[]) AS x(domain)
                                 WHERE c.domain = x.domain OR right(c.domain, length(x.domain) + 1) = '.' || x.domain)
                    THEN :domain_boost::float8 ELSE 1 END AS relevance
    FROM candidates c
  ),
  ranked AS (
    SELECT s.id, least(1, coalesce(s.relevance, 0)) AS relevance FROM scored s
    ORDER BY 2 DESC, s.id
    LIMIT :results::int
  )
  SELECT r.id, r.relevance, d.final_url, d.title, k.chunks,
         CASE WHEN :include_text::boolean OR k.chunks IS NULL THEN d.text ELSE '' END AS text,
         CASE WHEN :include_markdown::boolean THEN d.markdown END AS markdown,
         d.images, d.published_date, d.language, d.content_hash
  FROM ranked r
  JOIN documents d ON d.id = r.id
  -- The best :chunks_per_source chunks of each shown page, in page order (none asked or none stored: NULL): ranked
  -- by ts_rank over the query's lexemes, those rarer than the query's average weighing four times the others
  -- (weight A against D), so the passage with the distinctive words wins over one repeating common ones.
  LEFT JOIN LATERAL (
    -- json, not text[]: the driver parses JSON natively but walks a text array's literal character by character.
    SELECT json_agg(b.content ORDER BY b.position) AS chunks
    FROM (
      SELECT ch.position, ch.content
      FROM document_chunks ch
      WHERE ch.document_id = r.id AND :chunks_per_source::int > 0
      ORDER BY ts_rank('{0.25, 0.25, 0.25, 1}', setweight(ch.vector, 'a', :rare_lexemes::text[]), :chunk_query::tsquery) DESC,
               ch.position
      LIMIT greatest(:chunks_per_source::int, 1)
    ) AS b
  ) AS k ON true
  ORDER BY r.relevance DESC, r.id`;

/** What a query filters on, normalised once; `filtered` when any of it narrows the corpus (the GIN index path). */
interface QueryFilters {
  includeDomains: string[] | null;
  excludeDomains: string[] | null;
  boostDomains: string[];
  after: Date | null;
  before: Date | null;
  language: string | null;
  phrases: string[];
  filtered: boolean;
}

function filtersOf(query: SearchQuery): QueryFilters {
  const includeMode = query.includeDomainsMode ?? 'filter';
  const included = query.includeDomains?.length ? query.includeDomains.map(normalizeDomainEntry) : null;
  const window = timeWindowOf(query);
  const filters = {
    includeDomains: includeMode === 'filter' ? included : null,
    excludeDomains: query.excludeDomains?.length ? query.excludeDomains.map(normalizeDomainEntry) : null,
    boostDomains: includeMode === 'boost' && included ? included : [],
    after: window.after ?? null,
    before: window.before ?? null,
    language: query.filterByLanguage ? (languageCodeOf(query.language) ?? null) : null,
    phrases: query.exactMatch ? quotedPhrases(query.query) : [],
  };
  const filtered =
    filters.includeDomains !== null || filters.excludeDomains !== null || filters.after !== null || filters.before !== null ||
    filters.language !== null || query.topic === 'news' || query.safeSearch === true || filters.phrases.length > 0;
  return { ...filters, filtered };
}

/** A statement written with `:name` placeholders, turned once into `$n` positions for a prepared statement. */
interface NamedStatement {
  name: string;
  text: string;
  /** The parameter names in `$n` order. */
  parameters: string[];
}

function namedStatement(name: string, text: string): NamedStatement {
  const parameters: string[] = [];
  const compiled = text.replace(/(?<![:\w]):([a-z_][a-z0-9_]*)/g, (_match, parameter: string) => {
    let position = parameters.indexOf(parameter);
    if (position < 0) position = parameters.push(parameter) - 1;
    return `$${position + 1}`;
  });
  return { name, text: compiled, parameters };
}

/** The statement with its values in `$n` order; every placeholder needs a value (undefined is a mistake, null is not). */
function bind(statement: NamedStatement, values: Record<string, unknown>): { name: string; text: string; values: unknown[] } {
  return {
    name: statement.name,
    text: statement.text,
    values: statement.parameters.map((parameter) => {
      if (values[parameter] === undefined) throw new Error(`${statement.name}: no value for :${parameter}`);
      return values[parameter];
    }),
  };
}

const POSTINGS_STATEMENT = namedStatement('sift_local_index_postings', `WITH ${POSTINGS_CANDIDATES_SQL},${SCORING_SQL}`);
const FILTERED_STATEMENT = namedStatement('sift_local_index_filtered', `WITH ${FILTERED_CANDIDATES_SQL},${SCORING_SQL}`);

const LANGUAGE_BOOST = 1.25;
const COUNTRY_BOOST = 1.2;
const DOMAIN_BOOST = 1.5;

/**
 * The embedded index over the document store, in Postgres. Candidates come from the impact-ordered postings
 * (unfiltered searches) or the GIN index over the tsvectors (filtered ones); either way they are re-scored
 * exactly with BM25F from their tsvector (title, description and body weights) and corpus statistics, boosted,
 * cut to maxResults and loaded with their best stored chunks, all in one statement.
 */
export class LocalIndexProvider implements SearchProvider {
  readonly name = 'local';
  private readonly corpus: CorpusSnapshotCache;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly options: LocalIndexOptions = {},
  ) {
    this.corpus = new CorpusSnapshotCache(prisma, {
      ttlMs: options.statisticsTtlMs ?? 60_000,
      maximumDocumentsForLexemeTable: options.lexemeTableMaximumDocuments ?? 200_000,
    });
  }

  async search(query: SearchQuery): Promise<SearchCandidate[]> {
    const maxResults = query.maxResults ?? 10;
    if (maxResults <= 0) return [];
    const corpus = await this.corpus.current();
    if (corpus.documentCount === 0) return [];
    const lexemeRows = await this.queryLexemes(query.query, corpus, viewerAccountOf(query.viewer));
    if (lexemeRows.length === 0) return [];

    const idfByLexeme = new Map<string, number>();
    for (const row of lexemeRows) idfByLexeme.set(row.lexeme, inverseDocumentFrequency(row.document_frequency, corpus.documentCount));
    const lexemes = [...idfByLexeme.keys()];
    const filters = filtersOf(query);
    const limit = this.options.candidateLimit ?? (filters.filtered ? Math.max(40, maxResults * 4) : Math.max(30, maxResults * 3));
    const rows = await this.rankedDocuments(query, corpus, filters, {
      lexemes,
      idfs: lexemes.map((lexeme) => idfByLexeme.get(lexeme) ?? 0),
      terms: lexemeRows.map((row) => ({ config: row.config, lexeme: row.lexeme, idf: idfByLexeme.get(row.lexeme) ?? 0 })),
      // Only the GIN path needs them: the postings path reads every query lexeme's best postings.
      matchLexemes: filters.filtered ? this.matchLexemes(lexemeRows, limit * 10) : [],
      limit,
      maxResults,
    });
    // An account's own copy of a URL and the shared copy are two documents; show the better-ranked one.
    const seen = new Set<string>();
    return rows.filter((row) => !seen.has(row.final_url) && seen.add(row.final_url)).map((row) => this.toCandidate(row));
  }

  /**
   * The lexemes candidates must contain at least one of: the rarest ones, until their document frequencies
   * add up to the budget. A page that only shares the query's most common words almost never makes the top
   * results, and leaving those words out keeps the GIN scan from visiting most of the corpus.
   */
  private matchLexemes(rows: QueryLexemeRow[], budget: number): string[] {
    const byFrequency = new Map<string, number>();
    for (const row of rows) byFrequency.set(row.lexeme, row.document_frequency);
    const sorted = [...byFrequency.entries()].sort((left, right) => left[1] - right[1]);
    const chosen: string[] = [];
    let total = 0;
    for (const [lexeme, frequency] of sorted) {
      if (chosen.length > 0 && total + frequency > budget) break;
      chosen.push(lexeme);
      total += frequency;
    }
    return chosen;
  }

  /**
   * The query's lexemes under every text search configuration present in the corpus, with their document
   * frequency among the pages the viewer may see: from the snapshot (shared pages), or counted through the GIN
   * index (one statement) over the shared pages and the viewer's own for lexemes it lacks. A lexeme no visible page
   * contains is dropped, so another tenant's private words leave the scores untouched.
   */
  private async queryLexemes(text: string, corpus: CorpusSnapshot, viewer: string | null): Promise<QueryLexemeRow[]> {
    const pairs = await queryRows<{ config: string; lexeme: string }>(this.prisma, {
      name: 'sift_local_index_query_lexemes',
      text: `SELECT DISTINCT c.config, l.lexeme
             FROM unnest($1::text[]) AS c(config)
             CROSS JOIN LATERAL unnest(to_tsvector(c.config::regconfig, $2::text)) AS l`,
      values: [corpus.configs, text],
    });
    // Lexemes with a backslash cannot be written as a tsquery operand reliably: they never count.
    const usable = pairs.filter((pair) => !pair.lexeme.includes('\\'));
    const unknown = [...new Set(usable.map((pair) => pair.lexeme).filter((lexeme) => !corpus.documentFrequencies.has(lexeme)))];
    const counted = new Map<string, number>();
    if (unknown.length > 0) {
      const rows = await queryRows<{ lexeme: string; document_frequency: number }>(this.prisma, {
        name: 'sift_local_index_count_lexemes',
        text: `SELECT l.lexeme, (SELECT count(*) FROM documents d
                                 WHERE d.search_vector @@ l.operand
                                   AND (d.owner_account_id IS NULL OR d.owner_account_id = $3::uuid))::int AS document_frequency
               FROM unnest($1::text[], $2::tsquery[]) AS l(lexeme, operand)`,
        values: [unknown, unknown.map(tsqueryOperand), viewer],
      });
      for (const row of rows) counted.set(row.lexeme, row.document_frequency);
    }
    return usable.flatMap((pair) => {
      const frequency = corpus.documentFrequencies.get(pair.lexeme) ?? counted.get(pair.lexeme) ?? 0;
      return frequency > 0 ? [{ config: pair.config, lexeme: pair.lexeme, document_frequency: frequency }] : [];
    });
  }

  /** Candidates passing every filter, re-scored with BM25F and boosted, best first, with what a result shows. */
  private async rankedDocuments(
    query: SearchQuery,
    corpus: CorpusStatistics,
    filters: QueryFilters,
    plan: {
      lexemes: string[];
      idfs: number[];
      terms: { config: string; lexeme: string; idf: number }[];
      matchLexemes: string[];
      limit: number;
      maxResults: number;
    },
  ): Promise<RankedDocumentRow[]> {
    const boostLanguage = !query.filterByLanguage ? (languageCodeOf(query.language) ?? null) : null;
    const boostCountry = query.topic === 'general' || !query.topic ? (countryCodeOf(query.country) ?? null) : null;
    const { k1, b } = this.options.bm25f ?? DEFAULT_BM25F;
    const meanIdf = plan.idfs.reduce((sum, idf) => sum + idf, 0) / Math.max(1, plan.idfs.length);
    const common = {
      viewer: viewerAccountOf(query.viewer),
      lexemes: plan.lexemes,
      idfs: plan.idfs,
      limit: plan.limit,
      term_configs: plan.terms.map((term) => term.config),
      term_lexemes: plan.terms.map((term) => term.lexeme),
      term_idfs: plan.terms.map((term) => term.idf),
      k1,
      b,
      // A corpus without lengths compares every page with itself (ratio 1), as BM25 does for an empty corpus.
      average_word_count: corpus.averageWordCount > 0 ? corpus.averageWordCount : null,
      boost_language: boostLanguage,
      boost_country: boostCountry,
      boost_domains: filters.boostDomains,
      language_boost: LANGUAGE_BOOST,
      country_boost: COUNTRY_BOOST,
      domain_boost: DOMAIN_BOOST,
      results: plan.maxResults,
      include_markdown: query.includeMarkdown ?? true,
      chunks_per_source: query.chunksPerSource ?? 0,
      chunk_query: anyLexemeQuery(plan.lexemes),
      rare_lexemes: plan.lexemes.filter((_lexeme, position) => plan.idfs[position] >= meanIdf),
      include_text: query.includeText ?? query.chunksPerSource === undefined,
    };
    const statement = filters.filtered
      ? bind(FILTERED_STATEMENT, {
          ...common,
          operands: plan.lexemes.map(tsqueryOperand),
          match: anyLexemeQuery(plan.matchLexemes),
          include_domains: filters.includeDomains,
          exclude_domains: filters.excludeDomains,
          after: filters.after,
          before: filters.before,
          language: filters.language,
          any_topic: query.topic !== 'news',
          unsafe_allowed: !query.safeSearch,
          phrases: filters.phrases,
        })
      : bind(POSTINGS_STATEMENT, {
          ...common,
          postings_per_lexeme: this.options.postingsPerLexeme ?? DEFAULT_POSTINGS_PER_LEXEME,
        });
    return queryRows<RankedDocumentRow>(this.prisma, statement);
  }

  private toCandidate(row: RankedDocumentRow): SearchCandidate {
    const candidate: SearchCandidate = {
      url: row.final_url,
      title: row.title,
      content: row.text,
      contentIsSnippet: false,
      score: row.relevance,
      provider: this.name,
      images: Array.isArray(row.images) ? (row.images as unknown as ImageReference[]) : [],
      documentId: row.id,
      contentHash: row.content_hash,
    };
    if (row.chunks !== null) candidate.chunks = row.chunks;
    if (row.markdown !== null) candidate.markdown = row.markdown;
    if (row.published_date) candidate.publishedDate = row.published_date.toISOString();
    if (row.language) candidate.language = row.language;
    return candidate;
  }
}
