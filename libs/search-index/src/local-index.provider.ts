import { queryRows } from '@sift/persistence';
import { queryNamesOf, searchableText } from '@sift/ranking';
import type { PrismaClient } from '@sift/persistence';
import { DEFAULT_BM25F, inverseDocumentFrequency } from './bm25f-scorer';
import { LINK_HALF, LINK_WEIGHT, linkPriorSql } from './link-prior';
import type { Bm25fParameters } from './bm25f-scorer';
import { configLexemeKey, CorpusSnapshotCache, NO_SITE_LINK_PRIORS } from './corpus-snapshot';
import type { CorpusSnapshot, SiteLinkPriors } from './corpus-snapshot';
import { countryCodeOf } from '@sift/pages';
import { normalizeDomainEntry } from './domain-match';
import { languageCodeOf, searchConfigNameOf } from '@sift/pages';
import { quotedPhrases } from './query-phrases';
import { QueryWordLexemes, unionOf, wordsOf, type ConfigLexeme } from './query-word-lexemes';
import { proximitySpans, type ProximitySpan } from './query-proximity';
import { searchTermsOf } from './question-phrasing';
import type { ImageReference, SearchCandidate } from './search-candidate';
import type { SearchProvider } from './search-provider';
import type { SearchQuery } from './search-query';
import { viewerAccountOf } from '@sift/pages';
import { timeWindowOf } from './time-window';
import { anyLexemeQuery, tsqueryOperand } from './tsquery-literal';
import type { DenseChunkIndex, DocumentNeighbour } from './dense-chunk-index';

export interface LocalIndexOptions {
  /**
   * How long corpus statistics (document count, lengths, languages, lexeme document frequencies) are reused;
   * they move slowly. Default 60 s; lexemes missing from the snapshot (new pages) are still counted live, and a search
   * waits for new statistics when the corpus (or its pages of one language) has changed by a good share since
   * (an import, a crawl: CorpusSnapshotCache).
   */
  statisticsTtlMs?: number;
  /**
   * The share of the corpus (or of its pages of one language) that may change before a search waits for new
   * statistics (default 0.1); Infinity holds them for statisticsTtlMs whatever is stored meanwhile.
   */
  statisticsRefreshShare?: number;
  /** Corpora larger than this skip the lexeme table (a full `ts_stat` scan) and count each lexeme live. */
  lexemeTableMaximumDocuments?: number;
  /**
   * Candidates re-scored exactly with BM25F. Default max(30, 3 × maxResults) on both candidate paths, which pre-rank
   * the same way (idf × impact). The GIN path once took max(40, 4 × maxResults) to make up for a coarser
   * pre-ranking; on the mixed-index benchmark 30 instead of 40 costs it about 0.001 nDCG@10 (docs/benchmarks.md). Each
   * candidate costs one postings probe per query lexeme.
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
  /**
   * Dense retrieval over the chunks' vectors (EMBEDDINGS_*): when set, a search that asks for it (SearchQuery.dense)
   * fuses the pages nearest its meaning with the words' ranking. Unset: ranking by words alone, at no added cost.
   */
  dense?: DenseChunkIndex;
}

const DEFAULT_POSTINGS_PER_LEXEME = 150;

/**
 * Reciprocal rank fusion's constant (Cormack et al., SIGIR 2009), as the fan-out fuses providers with: a page's fused
 * score is the sum over the two rankings of 1 / (RRF_RANK_CONSTANT + its rank there).
 */
const RRF_RANK_CONSTANT = 60;

/** Dense neighbours read per result asked for: room for pages the filters or the one-per-URL rule then drop. */
const DENSE_NEIGHBOURS_PER_RESULT = 3;
/** A filtered search reads at least this many neighbours: a filter may keep few of the nearest pages. */
const FILTERED_DENSE_NEIGHBOURS = 200;
/** How long a search with no deadline of its own waits for the query's vector, besides EMBEDDINGS_TIMEOUT_MS. */
const DEFAULT_DENSE_DEADLINE_MS = 5_000;

interface QueryLexemeRow {
  config: string;
  lexeme: string;
  document_frequency: number;
}

/** A lexeme the ranking scores, with its idf times its weight in the query. */
interface QueryTerm extends QueryLexemeRow {
  idf: number;
}

/** Proximity spans with their shares of the proximity feature (summing to 1). */
interface WeighedSpans {
  spans: string[];
  weights: number[];
}

/** The first ranking RM3 reads its feedback from is the terms' alone, as RM3 is defined. */
const NO_PROXIMITY: WeighedSpans = { spans: [], weights: [] };

/** What advanced depth adds to a ranking: term proximity, and the query's own terms for passage scoring (none: off). */
interface Reranking {
  proximity: WeighedSpans;
  passageTerms: QueryTerm[];
}

const NO_RERANKING: Reranking = { proximity: NO_PROXIMITY, passageTerms: [] };

/** The corpus statistics a ranking statement is bound with: the snapshot, and the sites' link priors at advanced depth. */
interface RankingCorpus extends CorpusSnapshot {
  siteLinkPriors: SiteLinkPriors;
}

/** The idf summed per text search configuration: the best score a page of each could reach with these terms. */
function idfMassByConfig(terms: readonly QueryTerm[]): Map<string, number> {
  const masses = new Map<string, number>();
  for (const term of terms) masses.set(term.config, (masses.get(term.config) ?? 0) + term.idf);
  return masses;
}

/**
 * Each span weighs as its rarer word (the lesser idf of its two words' terms): "boundary layer" among aerodynamics
 * abstracts, where both words are everywhere, says less than a pair of rare words, as in the sequential dependence
 * model, whose window features are scored against their collection frequency.
 */
function weighedSpans(spans: ProximitySpan[], contentWords: Map<string, ConfigLexeme[]>, terms: QueryTerm[]): WeighedSpans {
  const idfOf = (word: string) => {
    const lexemes = new Set((contentWords.get(word) ?? []).map((entry) => configLexemeKey(entry.config, entry.lexeme)));
    return Math.max(0, ...terms.filter((term) => isPresent(term) && lexemes.has(configLexemeKey(term.config, term.lexeme))).map((term) => term.idf));
  };
  const raw = spans.map((span) => Math.min(idfOf(span.words[0]), idfOf(span.words[1])));
  const total = raw.reduce((sum, weight) => sum + weight, 0);
  if (total <= 0) return { spans: [], weights: [] };
  const kept = spans.flatMap((span, position) => (raw[position] > 0 ? [{ span: span.span, weight: raw[position] / total }] : []));
  return { spans: kept.map((entry) => entry.span), weights: kept.map((entry) => entry.weight) };
}

/** A query term some page of its configuration contains: only those are looked up and scored. */
function isPresent(term: QueryLexemeRow): boolean {
  return term.document_frequency > 0;
}

/** The pages idf is counted among for a lexeme of this configuration (all pages when the snapshot has none of it). */
function documentsOf(corpus: CorpusSnapshot, config: string): number {
  return corpus.documentCounts.get(config) ?? corpus.documentCount;
}

/** Pseudo-relevance feedback (advanced depth): pages read, terms added, and the original query's share. */
const FEEDBACK_DOCUMENTS = 10;
const FEEDBACK_TERMS = 10;
const ORIGINAL_QUERY_WEIGHT = 0.5;
/**
 * Advanced depth: the share of relevance that term proximity carries, the sequential dependence model's weight of
 * its ordered-window feature (Metzler and Croft, SIGIR 2005: 0.85 terms, 0.1 ordered, 0.05 unordered windows; the
 * unordered one is not used). On the mixed-index benchmark 0.15 (both windows' weight on the ordered feature)
 * ranked the questions alike and Cranfield lower (docs/benchmarks.md).
 */
const PROXIMITY_WEIGHT = 0.1;
/**
 * Proximity re-ranks this many candidates per result asked for, the best by term relevance: it reads each one's
 * vector, and a page further down cannot gain enough from it (at most PROXIMITY_WEIGHT) to matter. On the benchmark
 * two per result rank exactly as all candidates do; one per result lost 0.007 MRR.
 */
const PROXIMITY_CANDIDATES_PER_RESULT = 2;
/**
 * Advanced depth: the share of relevance that the page's best passage carries (max-passage evidence, Callan, SIGIR
 * 1994; Liu and Croft, SIGIR 2002's combination with the page's own score): BM25 over each stored chunk with the
 * query's own terms (not the feedback's) and the page's k1 and b, as a share of their idf mass. A long guide that
 * holds every query word somewhere ranks below a page that answers the question in one place. Chosen among 0.1,
 * 0.2, 0.3 and 0.5 on a prototype of the mixed-index benchmark (docs/benchmarks.md, round 14).
 */
const PASSAGE_WEIGHT = 0.3;
/**
 * A full chunk's words (chunks are cut at 500 characters: 61 words at the median on the benchmark index). Passages
 * are scored for the best max_results pages by term relevance (POST /search at advanced depth asks for three
 * candidates per result shown: scoring only those shown lost the questions benchmark two of its hits).
 */
const PASSAGE_REFERENCE_WORDS = 60;

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
  source: string;
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
  -- MATERIALIZED: inlined, the candidate's configuration (sift_search_config, a CASE over some 30 languages) moved
  -- into the scoring subquery's filter and ran once per (candidate, query term) instead of once per candidate: about
  -- 7% of the statement's Postgres CPU (docs/benchmarks.md, round 15).
  candidates AS MATERIALIZED (
    SELECT d.id, sift_search_config(d.language)::text AS config, d.word_count, d.language, d.domain, d.country_hints,
           d.url, d.final_url, d.title_names, a.approximate
    FROM approximate a
    JOIN documents d ON d.id = a.id
  )`;

/**
 * What a page `d` must be to be a result: visible to the viewer (shared, or its own) and passing every filter of the
 * query. One text for the filtered candidates and the dense ones, so both paths apply the same rules.
 */
const VISIBLE_AND_FILTERED_SQL = `(d.owner_account_id IS NULL OR d.owner_account_id = :viewer::uuid)
      AND (:include_domains::text[] IS NULL OR EXISTS (
            SELECT 1 FROM unnest(:include_domains::text[]) AS x(domain)
            WHERE d.domain = x.domain OR right(d.domain, length(x.domain) + 1) = '.' || x.domain))
      AND (:exclude_domains::text[] IS NULL OR NOT EXISTS (
            SELECT 1 FROM unnest(:exclude_domains::text[]) AS x(domain)
            WHERE d.domain = x.domain OR right(d.domain, length(x.domain) + 1) = '.' || x.domain))
      AND CASE
            -- A page stating no publish date, under a date filter: kept, dropped, or judged by its fetch (QueryFilters.undated).
            WHEN d.published_date IS NULL AND :undated::text = 'keep' THEN true
            WHEN d.published_date IS NULL AND :undated::text = 'drop' THEN :after::timestamptz IS NULL AND :before::timestamptz IS NULL
            ELSE (:after::timestamptz IS NULL OR coalesce(d.published_date, d.fetched_at) >= :after::timestamptz)
             AND (:before::timestamptz IS NULL OR coalesce(d.published_date, d.fetched_at) < :before::timestamptz)
          END
      AND (:language::text IS NULL OR d.language = :language::text)
      AND (:any_topic::boolean OR d.is_news)
      AND (:unsafe_allowed::boolean OR NOT d.is_unsafe)
      AND NOT EXISTS (SELECT 1 FROM unnest(:phrases::text[]) AS p(phrase)
                      WHERE strpos(lower(d.title || ' ' || coalesce(d.description, '') || ' ' || d.text), p.phrase) = 0)`;

/**
 * Candidates through the GIN index, for filtered searches: pages passing every filter that contain one of the
 * match lexemes, pre-ranked like the postings path ranks its own (the sum of idf × impact over the query lexemes,
 * each read with one index-only probe of the (document, lexeme) postings index), so a filter that keeps every
 * relevant page does not change which of them are re-scored; the best `:limit` go on.
 */
const FILTERED_CANDIDATES_SQL = `
  matching AS (
    SELECT d.id, d.word_count, d.language, d.domain, d.country_hints, d.url, d.final_url, d.title_names
    FROM documents d
    WHERE d.search_vector @@ :match::tsquery
      AND ${VISIBLE_AND_FILTERED_SQL}
  ),
  candidates AS (
    SELECT m.id, sift_search_config(m.language)::text AS config, m.word_count, m.language, m.domain, m.country_hints,
           m.url, m.final_url, m.title_names,
           (SELECT coalesce(sum(t.idf * e.impact), 0)
            FROM unnest(:lexemes::text[], :idfs::float8[]) AS t(lexeme, idf)
            JOIN document_postings e ON e.document_id = m.id AND e.lexeme = t.lexeme) AS approximate
    FROM matching m
    ORDER BY approximate DESC, m.id
    LIMIT :limit::int
  )`;

/**
 * A candidate's boost: the language, country and domain boosts and, at advanced depth, the link prior multiplied. The
 * link prior is 1 + LINK_WEIGHT × n / (n + LINK_HALF), n the pages the viewer may see whose content links to the
 * candidate (migration 20261125000000), divided by its site's mean (CorpusSnapshotCache.siteLinkPriors; 1 for sites
 * without links). It is query-independent evidence that the page is its site's reference on what it covers (a
 * command's manual page, linked from the pages that use the command, against a note that mentions it once),
 * saturating (Craswell et al., SIGIR 2005) so a hub linked from hundreds of pages gains little more than one linked
 * from a dozen, bounded so it reorders close matches without lifting a poor match over a good one, and relative to
 * the site so a collection whose pages link to one another does not rise as a whole above one without links. n counts
 * linking pages, not documents: the viewer's own copy of a shared page links once with it. At every
 * depth, NAME_BOOST for a candidate the query names (one of its title's names is among the query's runs of words;
 * title_names, migration 20261126000000).
 */
const BOOST_SQL = `
           CASE WHEN c.language = :boost_language::text THEN :language_boost::float8 ELSE 1 END
             * CASE WHEN :boost_country::text = ANY(c.country_hints) THEN :country_boost::float8 ELSE 1 END
             * CASE WHEN EXISTS (SELECT 1 FROM unnest(:boost_domains::text[]) AS x(domain)
                                 WHERE c.domain = x.domain OR right(c.domain, length(x.domain) + 1) = '.' || x.domain)
                    THEN :domain_boost::float8 ELSE 1 END
             * CASE WHEN :link_weight::float8 = 0 THEN 1
                    ELSE (SELECT ${linkPriorSql('count(*)', ':link_weight::float8', ':link_half::float8')}
                          FROM document_links l
                          WHERE l.target_url = c.url
                            AND (l.owner_account_id IS NULL
                                 -- The viewer's own copy of a page whose shared copy links here too is the same linking
                                 -- page: its link counts once (the shared one). Only the viewer's own links are looked up.
                                 OR (l.owner_account_id = :viewer::uuid
                                     AND NOT EXISTS (SELECT 1 FROM documents own
                                                     JOIN documents shared ON shared.url = own.url AND shared.owner_account_id IS NULL
                                                     JOIN document_links sl ON sl.document_id = shared.id AND sl.target_url = l.target_url
                                                     WHERE own.id = l.document_id))))
                         / coalesce((:site_link_priors::float8[])[array_position(:site_link_domains::text[], c.domain)], 1) END
             * CASE WHEN c.title_names && :query_names::text[] THEN :name_boost::float8 ELSE 1 END`;

/**
 * From candidates to the ranked pages, the same for both candidate sources.
 *
 * scored: BM25F, divided by the best score a page could reach so relevance is in [0, 1], then the language,
 * country and domain boosts. Per candidate, over the query's lexemes of its text search configuration, one
 * index-only probe of its posting per (candidate, lexeme) pair (LIMIT 1 keeps the planner on that probe instead of
 * reading every posting of the lexeme): tf~, the title, description and headings occurrences each weighted and
 * normalised by its own field's length when the page was indexed (field_frequency, migration 20261124030000) plus
 * the body's occurrences normalised by the page's length against the average length of its site
 * (CorpusSnapshot.siteAverageWordCounts; the corpus average for small sites), saturated with k1; a lexeme without
 * a posting adds nothing. A term's idf carries its query weight (pseudo-relevance
 * feedback weighs expansion terms below the query's own).
 *
 * proximate (advanced depth): PROXIMITY_WEIGHT of relevance for the share of the query's spans of neighbouring
 * content words (proximitySpans) the page has as phrases, read from its vector's positions, and PASSAGE_WEIGHT of
 * the result for its best chunk's BM25 over the query's own terms (each chunk containing one of them, its lexemes read
 * from its stored vector), as a share of their idf mass in the page's configuration; proximity for the best
 * :proximity_candidates pages by term relevance, passages for the best :passage_candidates (others get none of
 * it); the boosts multiply the sum.
 */
const RANKING_SQL = `
  lengths AS (
    SELECT c.*, coalesce((:site_average_word_counts::float8[])[array_position(:site_domains::text[], c.domain)],
                         :average_word_count::float8) AS average_word_count
    FROM candidates c
  ),
  -- MATERIALIZED: proximate reads term_relevance twice (its order and its score); inlined, Postgres ran the
  -- per-candidate scoring subquery once for each, about a third of the statement.
  scored AS MATERIALIZED (
    SELECT c.id, c.config, c.word_count, c.final_url,
           (SELECT sum(q.idf * coalesce(f.saturated, 0)) / nullif((:config_masses::float8[])[array_position(:mass_configs::text[], c.config)], 0)
            FROM unnest(:term_configs::text[], :term_lexemes::text[], :term_idfs::float8[]) AS q(config, lexeme, idf)
            LEFT JOIN LATERAL (
              SELECT t.frequency / (t.frequency + :k1::float8) AS saturated
              FROM document_postings e
              CROSS JOIN LATERAL (
                SELECT e.field_frequency
                       + e.body_frequency / (1 - :b::float8 + :b::float8 * coalesce(c.word_count / c.average_word_count, 1)) AS frequency) AS t
              WHERE e.document_id = c.id AND e.lexeme = q.lexeme
              LIMIT 1) AS f ON true
            WHERE q.config = c.config) AS term_relevance,
           ${BOOST_SQL} AS boost
    FROM lengths c
  ),
  proximate AS (
    SELECT s.id, s.config, s.word_count, s.final_url,
           ((1 - :passage_weight::float8) *
              ((1 - :proximity_weight::float8) * s.term_relevance
               + CASE WHEN cardinality(:proximity_spans::text[]) = 0 OR s.position > :proximity_candidates::int THEN 0
                      ELSE :proximity_weight::float8 *
                        (SELECT coalesce(sum(p.weight) FILTER (WHERE d.search_vector @@ phraseto_tsquery(s.config::regconfig, p.span)), 0)
                         FROM documents d CROSS JOIN unnest(:proximity_spans::text[], :proximity_span_weights::float8[]) AS p(span, weight)
                         WHERE d.id = s.id) END)
            + CASE WHEN :passage_weight::float8 = 0 OR s.position > :passage_candidates::int THEN 0
                   ELSE :passage_weight::float8 *
                     -- Each matching chunk's vector cut to the query's lexemes first (setweight marks them, ts_filter
                     -- keeps them), each lexeme's idf found by its (configuration, lexeme) key: unnesting whole chunks
                     -- and joining the terms cost about 3.5 times as much Postgres CPU (docs/benchmarks.md, round 14).
                     coalesce((SELECT max(m.score) FROM (
                                 SELECT sum((:passage_idfs::float8[])[array_position(:passage_keys::text[], s.config || ' ' || u.lexeme)]
                                            * cardinality(u.positions)
                                            / (cardinality(u.positions) + :k1::float8 * (1 - :b::float8 + :b::float8 * ch.word_count / :passage_reference_words::float8))) AS score
                                 FROM document_chunks ch
                                 CROSS JOIN LATERAL unnest(ts_filter(setweight(ch.vector, 'A', :passage_lexemes::text[]), '{a}')) AS u
                                 WHERE ch.document_id = s.id AND ch.vector @@ :passage_query::tsquery
                                 GROUP BY ch.position) AS m), 0)
                     / nullif((:passage_masses::float8[])[array_position(:passage_mass_configs::text[], s.config)], 0) END) * s.boost AS relevance
    FROM (SELECT s.*, row_number() OVER (ORDER BY coalesce(s.term_relevance * s.boost, 0) DESC, s.id) AS position FROM scored s) AS s
  ),
  -- Ordered by the boosted relevance itself; the result's score is it capped at 1. Ordered by the capped score, pages
  -- the boosts lift past 1 tied and fell back to id order. One row per page before the limit: an account's own copy of
  -- a URL and the shared copy (or two stored URLs that led to the same page) are two documents with one final URL, and
  -- the better-ranked is kept, so a search returns as many pages as it asks for.
  ranked AS (
    SELECT s.id, s.config, s.word_count, least(1, s.boosted) AS relevance, s.boosted
    FROM (SELECT DISTINCT ON (p.final_url) p.id, p.config, p.word_count, coalesce(p.relevance, 0) AS boosted
          FROM proximate p
          ORDER BY p.final_url, 4 DESC, p.id) AS s
    ORDER BY 5 DESC, s.id
    LIMIT :results::int
  )`;

/**
 * Ultra-fast depth's ranking: the candidates in their pre-ranking order (the sum of idf × impact over the query's
 * lexemes, the impact saturating each posting's frequency against a fixed 500-word length, so at most the idf mass:
 * relevance in [0, 1]), boosted, without the exact BM25F re-scoring's probe per (candidate, lexeme) pair. The pages
 * differ from basic depth's where a page's posting of a lexeme lies beyond that lexeme's best postings, or its site's
 * length or its configuration's score scale would move it (docs/benchmarks.md, round 10).
 */
const APPROXIMATE_RANKING_SQL = `
  ranked AS (
    SELECT b.id, b.config, b.word_count, least(1, b.boosted) AS relevance, b.boosted
    FROM (SELECT DISTINCT ON (c.final_url) c.id, c.config, c.word_count,
                 coalesce(c.approximate / nullif(:idf_mass::float8, 0), 0) * ${BOOST_SQL} AS boosted
          FROM candidates c
          -- One row per page before the limit, as RANKING_SQL's ranked.
          ORDER BY c.final_url, 4 DESC, c.id) AS b
    ORDER BY 5 DESC, b.id
    LIMIT :results::int
  )`;

/** The ranked pages loaded with what a result shows, each page's chunks chosen in `chunkOrder`. */
const loadingSql = (chunkOrder: string) => `
  SELECT r.id, r.relevance, d.final_url, d.title, k.chunks,
         CASE WHEN :include_text::boolean OR k.chunks IS NULL THEN d.text ELSE '' END AS text,
         CASE WHEN :include_markdown::boolean THEN d.markdown END AS markdown,
         d.images, d.published_date, d.source, d.language, d.content_hash
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
      ORDER BY ${chunkOrder}
      LIMIT greatest(:chunks_per_source::int, 1)
    ) AS b
  ) AS k ON true
  ORDER BY r.boosted DESC, r.id`;

const LOADING_SQL = loadingSql(`ts_rank('{0.25, 0.25, 0.25, 1}', setweight(ch.vector, 'a', :rare_lexemes::text[]), :chunk_query::tsquery) DESC,
               ch.position`);

/**
 * Dense retrieval's pages (DenseChunkIndex: each page's best chunk by cosine similarity to the query's vector), kept
 * only if the viewer may see them and they pass the query's filters (VISIBLE_AND_FILTERED_SQL), one per final URL,
 * in order of similarity, loaded as the lexical statements load theirs; a page's chunks are its nearest chunk first,
 * then the rest in page order.
 */
const DENSE_SQL = `WITH
  nearest AS (
    SELECT n.id, n.similarity, n.position
    FROM unnest(:dense_ids::uuid[], :dense_similarities::float8[], :dense_positions::int[]) AS n(id, similarity, position)
  ),
  ranked AS (
    SELECT s.id, least(1, greatest(s.similarity, 0)) AS relevance, s.similarity AS boosted, s.position AS best_position
    FROM (SELECT DISTINCT ON (d.final_url) n.id, n.similarity, n.position
          FROM nearest n
          JOIN documents d ON d.id = n.id
          WHERE ${VISIBLE_AND_FILTERED_SQL}
          ORDER BY d.final_url, n.similarity DESC, n.id) AS s
    ORDER BY s.similarity DESC, s.id
    LIMIT :results::int
  )
  ${loadingSql('ch.position = r.best_position DESC, ch.position')}`;

/** What a query filters on, normalised once; `filtered` when any of it narrows the corpus (the GIN index path). */
interface QueryFilters {
  includeDomains: string[] | null;
  excludeDomains: string[] | null;
  boostDomains: string[];
  after: Date | null;
  before: Date | null;
  /**
   * A page stating no publish date under a date window: `keep` it, `drop` it, or judge it by when it was fetched
   * (`fetched`, when the caller did not say: include_undated absent).
   */
  undated: 'keep' | 'drop' | 'fetched';
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
    undated: query.includeUndated === undefined ? ('fetched' as const) : query.includeUndated ? ('keep' as const) : ('drop' as const),
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

/**
 * Pseudo-relevance feedback (RM3's relevance model): over the first ranking's best pages, each lexeme's share of a
 * page's words (field-weighted frequency over length) weighted by the page's share of the pages' relevance; the
 * most probable lexemes become expansion terms. One index-only read of each page's postings.
 */
const FEEDBACK_SQL = `
  SELECT r.config, e.lexeme,
         sum(r.relevance * (e.field_frequency + e.body_frequency) / greatest(r.word_count, 1))
           / nullif((SELECT sum(relevance) FROM ranked), 0) AS weight
  FROM ranked r
  JOIN document_postings e ON e.document_id = r.id
  WHERE r.relevance > 0
  GROUP BY 1, 2
  ORDER BY 3 DESC, 2
  LIMIT :feedback_terms::int`;

const STATEMENTS = {
  postings: namedStatement('sift_local_index_postings', `WITH ${POSTINGS_CANDIDATES_SQL},${RANKING_SQL}${LOADING_SQL}`),
  filtered: namedStatement('sift_local_index_filtered', `WITH ${FILTERED_CANDIDATES_SQL},${RANKING_SQL}${LOADING_SQL}`),
  postingsFeedback: namedStatement('sift_local_index_postings_feedback', `WITH ${POSTINGS_CANDIDATES_SQL},${RANKING_SQL}${FEEDBACK_SQL}`),
  filteredFeedback: namedStatement('sift_local_index_filtered_feedback', `WITH ${FILTERED_CANDIDATES_SQL},${RANKING_SQL}${FEEDBACK_SQL}`),
  postingsApproximate: namedStatement('sift_local_index_postings_approximate', `WITH ${POSTINGS_CANDIDATES_SQL},${APPROXIMATE_RANKING_SQL}${LOADING_SQL}`),
  filteredApproximate: namedStatement('sift_local_index_filtered_approximate', `WITH ${FILTERED_CANDIDATES_SQL},${APPROXIMATE_RANKING_SQL}${LOADING_SQL}`),
  dense: namedStatement('sift_local_index_dense', DENSE_SQL),
};

const LANGUAGE_BOOST = 1.25;
const COUNTRY_BOOST = 1.2;
const DOMAIN_BOOST = 1.5;

/**
 * A page the query names (one of its title's names, titleNamesOf, is a run of the query's words: "git clean" in "How do
 * git clean and git reset --hard differ") is what the query is about more than a page that only uses its words.
 */
const NAME_BOOST = 1.25;

/**
 * The embedded index over the document store, in Postgres. Candidates come from the impact-ordered postings
 * (unfiltered searches) or the GIN index over the tsvectors (filtered ones), pre-ranked the same way; either way
 * they are re-scored exactly with BM25F (title, description and body weights, each page's length against its
 * site's) and corpus statistics, boosted, cut to maxResults and loaded with their best stored chunks, all in one
 * statement (ultra-fast depth keeps the pre-ranking instead: APPROXIMATE_RANKING_SQL). Advanced depth first runs the
 * ranking once more to expand the query from its best pages (RM3), and
 * adds term proximity (the query's neighbouring content words found as phrases) and the page's best passage (its best
 * stored chunk by BM25 over the query's own words) to the final ranking.
 */
export class LocalIndexProvider implements SearchProvider {
  readonly name = 'local';
  private readonly corpus: CorpusSnapshotCache;
  private readonly wordLexemes = new QueryWordLexemes((words, configs) =>
    queryRows<{ word: string; config: string; lexeme: string }>(this.prisma, {
      name: 'sift_local_index_word_lexemes',
      text: `SELECT w.word, c.config, l.lexeme
             FROM unnest($1::text[]) AS w(word)
             CROSS JOIN unnest($2::text[]) AS c(config)
             CROSS JOIN LATERAL unnest(to_tsvector(c.config::regconfig, w.word)) AS l`,
      values: [words, configs],
    }),
  );

  constructor(
    private readonly prisma: PrismaClient,
    private readonly options: LocalIndexOptions = {},
  ) {
    this.corpus = new CorpusSnapshotCache(prisma, {
      ttlMs: options.statisticsTtlMs ?? 60_000,
      maximumDocumentsForLexemeTable: options.lexemeTableMaximumDocuments ?? 200_000,
      refreshShare: options.statisticsRefreshShare,
    });
  }

  /**
   * The ranked pages for the query: by words (BM25F and the rest, below), and, when a dense index is configured and
   * the query asks for it (SearchQuery.dense), fused with the pages nearest its meaning by reciprocal rank fusion. A
   * model that fails or is too slow leaves the words' ranking as it is.
   */
  async search(query: SearchQuery): Promise<SearchCandidate[]> {
    const maxResults = query.maxResults ?? 10;
    if (maxResults <= 0) return [];
    const dense = this.options.dense;
    if (!dense || !(query.dense ?? query.depth !== 'ultra-fast')) return this.lexicalSearch(query, maxResults);
    const filters = filtersOf(query);
    const neighbours = filters.filtered ? Math.max(FILTERED_DENSE_NEIGHBOURS, maxResults * DENSE_NEIGHBOURS_PER_RESULT) : maxResults * DENSE_NEIGHBOURS_PER_RESULT;
    const [lexical, nearest] = await Promise.all([
      this.lexicalSearch(query, maxResults),
      dense.nearestDocuments(query.query, viewerAccountOf(query.viewer), neighbours, query.deadlineMs ?? DEFAULT_DENSE_DEADLINE_MS),
    ]);
    if (!nearest.ok || nearest.value.length === 0) return lexical;
    const semantic = await this.denseCandidates(query, filters, nearest.value, maxResults);
    return fusedRanking(lexical, semantic, maxResults);
  }

  /** The dense neighbours the viewer may see and the filters keep, one per final URL, loaded as results. */
  private async denseCandidates(query: SearchQuery, filters: QueryFilters, nearest: DocumentNeighbour[], maxResults: number): Promise<SearchCandidate[]> {
    const rows = await queryRows<RankedDocumentRow>(this.prisma, bind(STATEMENTS.dense, {
      dense_ids: nearest.map((neighbour) => neighbour.documentId),
      dense_similarities: nearest.map((neighbour) => neighbour.similarity),
      dense_positions: nearest.map((neighbour) => neighbour.position),
      viewer: viewerAccountOf(query.viewer),
      include_domains: filters.includeDomains,
      exclude_domains: filters.excludeDomains,
      after: filters.after,
      before: filters.before,
      undated: filters.undated,
      language: filters.language,
      any_topic: query.topic !== 'news',
      unsafe_allowed: !query.safeSearch,
      phrases: filters.phrases,
      results: maxResults,
      include_markdown: query.includeMarkdown ?? true,
      chunks_per_source: query.chunksPerSource ?? 0,
      include_text: query.includeText ?? query.chunksPerSource === undefined,
    }));
    return rows.map((row) => this.toCandidate(row));
  }

  private async lexicalSearch(query: SearchQuery, maxResults: number): Promise<SearchCandidate[]> {
    let snapshot = await this.corpus.current();
    if (snapshot.documentCount === 0) return [];
    const viewer = viewerAccountOf(query.viewer);
    // The query as the document store wrote the pages for the parser (searchableText), once for both readers.
    const text = searchableText(searchTermsOf(query.query));
    const queryLanguage = languageCodeOf(query.language) ?? null;
    let lexemes = await this.queryLexemes(text, queryLanguage, snapshot, viewer);
    // Many more pages with a word than the snapshot has pages of its language: pages were stored since it was taken (a
    // crawl of a site in a language the corpus had few pages of, too few pages for the corpus as a whole to have
    // changed much). Its statistics and the live counts no longer describe the same pages: new ones are taken first.
    if (lexemes.rows.some((row) => this.corpus.isOutgrown(snapshot, row.config, row.document_frequency))) {
      snapshot = await this.corpus.refreshed();
      lexemes = await this.queryLexemes(text, queryLanguage, snapshot, viewer);
    }
    const { rows: lexemeRows, contentWords } = lexemes;
    if (lexemeRows.length === 0) return [];
    // Only advanced depth reads the sites' link priors (and builds them on its first search).
    const corpus: RankingCorpus = { ...snapshot, siteLinkPriors: query.depth === 'advanced' ? await this.corpus.siteLinkPriors(snapshot) : NO_SITE_LINK_PRIORS };
    const spans = query.depth === 'advanced' ? proximitySpans(text, (word) => contentWords.has(word)) : [];
    const filters = filtersOf(query);
    let terms: QueryTerm[] = lexemeRows.map((row) => ({ ...row, idf: inverseDocumentFrequency(row.document_frequency, documentsOf(corpus, row.config)) }));
    if (!terms.some(isPresent)) return [];
    const proximity = weighedSpans(spans, contentWords, terms);
    // Advanced depth scores passages with the query's own terms, before the feedback adds its own.
    const passageTerms = query.depth === 'advanced' ? terms : [];
    if (query.depth === 'advanced') terms = await this.withFeedbackTerms(query, corpus, filters, terms, viewer);
    const statement = query.depth === 'ultra-fast'
      ? (filters.filtered ? STATEMENTS.filteredApproximate : STATEMENTS.postingsApproximate)
      : (filters.filtered ? STATEMENTS.filtered : STATEMENTS.postings);
    const rows = await queryRows<RankedDocumentRow>(this.prisma, bind(statement, this.statementValues(query, corpus, filters, terms, { proximity, passageTerms }, maxResults)));
    // One row per final URL already (ranked, in the statement).
    return rows.map((row) => this.toCandidate(row));
  }

  /**
   * RM3 pseudo-relevance feedback (advanced depth; Abdul-Jaleel et al., TREC 2004, with Anserini's defaults): the
   * relevance model of the first ranking's ten best pages (each lexeme's share of a page's words, weighted by the
   * page's share of their relevance) cut to its ten most probable lexemes, mixed half and half with the query's own
   * lexemes (each 1/n of the query). The query's lexemes are part of that model: the ones the best pages use most
   * gain weight, and new lexemes (words the pages use for what the query asks in other words) come in beside them.
   * Until round 16 the model left the query's own lexemes out and the new ones weighed 0.3; with any weight below 0.7
   * that drifted (docs/benchmarks.md, round 16: Cranfield advanced 0.377 / 0.379 then, 0.398 / 0.397 now).
   */
  private async withFeedbackTerms(
    query: SearchQuery,
    corpus: RankingCorpus,
    filters: QueryFilters,
    terms: QueryTerm[],
    viewer: string | null,
  ): Promise<QueryTerm[]> {
    const statement = filters.filtered ? STATEMENTS.filteredFeedback : STATEMENTS.postingsFeedback;
    const feedback = await queryRows<{ config: string; lexeme: string; weight: number }>(this.prisma, bind(statement, {
      ...this.statementValues(query, corpus, filters, terms, NO_RERANKING, FEEDBACK_DOCUMENTS),
      feedback_terms: FEEDBACK_TERMS * 4,
    }));
    const model = feedback.filter((row) => row.weight > 0 && !row.lexeme.includes('\\')).slice(0, FEEDBACK_TERMS);
    const modelMass = model.reduce((sum, row) => sum + row.weight, 0);
    if (modelMass <= 0) return terms;
    const probability = new Map(model.map((row) => [configLexemeKey(row.config, row.lexeme), row.weight / modelMass]));
    // In units of one query lexeme (each weighs 1/n of the query, so n times a share of the mixture).
    const lexemes = new Set(terms.filter(isPresent).map((term) => term.lexeme)).size;
    const weightOf = (key: string, inQuery: boolean) =>
      (inQuery ? ORIGINAL_QUERY_WEIGHT : 0) + lexemes * (1 - ORIGINAL_QUERY_WEIGHT) * (probability.get(key) ?? 0);
    const own = terms.map((term) => ({ ...term, idf: term.idf * weightOf(configLexemeKey(term.config, term.lexeme), true) }));
    const original = new Set(terms.map((term) => configLexemeKey(term.config, term.lexeme)));
    const added = model.filter((row) => !original.has(configLexemeKey(row.config, row.lexeme)));
    const frequencies = await this.documentFrequencies(added, corpus, viewer);
    const expanded = added.flatMap((row) => {
      const key = configLexemeKey(row.config, row.lexeme);
      const frequency = frequencies.get(key) ?? 0;
      if (frequency === 0) return [];
      return [{ config: row.config, lexeme: row.lexeme, document_frequency: frequency, idf: inverseDocumentFrequency(frequency, documentsOf(corpus, row.config)) * weightOf(key, false) }];
    });
    return [...own, ...expanded];
  }

  /** The values of a ranking statement for these terms (each carrying its weighted idf) and this many results. */
  private statementValues(
    query: SearchQuery,
    corpus: RankingCorpus,
    filters: QueryFilters,
    queryTerms: QueryTerm[],
    { proximity, passageTerms }: Reranking,
    maxResults: number,
  ): Record<string, unknown> {
    // The best score a page of a configuration could reach: the idf mass of every query term of its configuration,
    // those no page of it contains included (they score nothing but are still asked for).
    const massByConfig = idfMassByConfig(queryTerms);
    const terms = queryTerms.filter(isPresent);
    const idfByLexeme = new Map<string, number>();
    for (const term of terms) idfByLexeme.set(term.lexeme, Math.max(idfByLexeme.get(term.lexeme) ?? 0, term.idf));
    const lexemes = [...idfByLexeme.keys()];
    const idfs = lexemes.map((lexeme) => idfByLexeme.get(lexeme) ?? 0);
    const limit = this.options.candidateLimit ?? Math.max(30, maxResults * 3);
    const boostLanguage = !query.filterByLanguage ? (languageCodeOf(query.language) ?? null) : null;
    const boostCountry = query.topic === 'general' || !query.topic ? (countryCodeOf(query.country) ?? null) : null;
    const { k1, b } = this.options.bm25f ?? DEFAULT_BM25F;
    const meanIdf = idfs.reduce((sum, idf) => sum + idf, 0) / Math.max(1, idfs.length);
    const passageMasses = idfMassByConfig(passageTerms);
    const presentPassageTerms = passageTerms.filter(isPresent);
    const common = {
      viewer: viewerAccountOf(query.viewer),
      lexemes,
      idfs,
      idf_mass: idfs.reduce((sum, idf) => sum + idf, 0),
      limit,
      term_configs: terms.map((term) => term.config),
      term_lexemes: terms.map((term) => term.lexeme),
      term_idfs: terms.map((term) => term.idf),
      mass_configs: [...massByConfig.keys()],
      proximity_spans: proximity.spans,
      proximity_span_weights: proximity.weights,
      proximity_weight: proximity.spans.length > 0 ? PROXIMITY_WEIGHT : 0,
      proximity_candidates: PROXIMITY_CANDIDATES_PER_RESULT * maxResults,
      passage_weight: presentPassageTerms.length > 0 ? PASSAGE_WEIGHT : 0,
      passage_candidates: maxResults,
      passage_keys: presentPassageTerms.map((term) => `${term.config} ${term.lexeme}`),
      passage_lexemes: presentPassageTerms.map((term) => term.lexeme),
      passage_idfs: presentPassageTerms.map((term) => term.idf),
      passage_query: anyLexemeQuery([...new Set(presentPassageTerms.map((term) => term.lexeme))]),
      passage_mass_configs: [...passageMasses.keys()],
      passage_masses: [...passageMasses.values()],
      passage_reference_words: PASSAGE_REFERENCE_WORDS,
      config_masses: [...massByConfig.values()],
      k1,
      b,
      // A corpus without lengths compares every page with itself (ratio 1), as BM25 does for an empty corpus.
      average_word_count: corpus.averageWordCount > 0 ? corpus.averageWordCount : null,
      site_domains: corpus.siteAverageWordCounts.domains,
      site_average_word_counts: corpus.siteAverageWordCounts.averages,
      boost_language: boostLanguage,
      boost_country: boostCountry,
      boost_domains: filters.boostDomains,
      language_boost: LANGUAGE_BOOST,
      country_boost: COUNTRY_BOOST,
      domain_boost: DOMAIN_BOOST,
      name_boost: NAME_BOOST,
      query_names: queryNamesOf(query.query),
      // Advanced depth only: at basic depth the prior cost the research benchmark's searches (basic depth) the pages
      // their questions name, which few pages link to (docs/benchmarks.md, round 17).
      link_weight: query.depth === 'advanced' ? LINK_WEIGHT : 0,
      link_half: LINK_HALF,
      site_link_domains: corpus.siteLinkPriors.domains,
      site_link_priors: corpus.siteLinkPriors.means,
      results: maxResults,
      include_markdown: query.includeMarkdown ?? true,
      chunks_per_source: query.chunksPerSource ?? 0,
      chunk_query: anyLexemeQuery(lexemes),
      rare_lexemes: lexemes.filter((_lexeme, position) => idfs[position] >= meanIdf),
      include_text: query.includeText ?? query.chunksPerSource === undefined,
    };
    if (!filters.filtered) return { ...common, postings_per_lexeme: this.options.postingsPerLexeme ?? DEFAULT_POSTINGS_PER_LEXEME };
    return {
      ...common,
      // Only the GIN path needs them: the postings path reads every query lexeme's best postings.
      match: anyLexemeQuery(this.matchLexemes(terms, limit * 10)),
      include_domains: filters.includeDomains,
      exclude_domains: filters.excludeDomains,
      after: filters.after,
      before: filters.before,
      undated: filters.undated,
      language: filters.language,
      any_topic: query.topic !== 'news',
      unsafe_allowed: !query.safeSearch,
      phrases: filters.phrases,
    };
  }

  /**
   * The lexemes candidates must contain at least one of: the rarest ones, until their document frequencies
   * add up to the budget. A page that only shares the query's most common words almost never makes the top
   * results, and leaving those words out keeps the GIN scan from visiting most of the corpus.
   */
  private matchLexemes(rows: QueryLexemeRow[], budget: number): string[] {
    const byFrequency = new Map<string, number>();
    // A lexeme matches pages of every configuration that has it.
    for (const row of rows) byFrequency.set(row.lexeme, (byFrequency.get(row.lexeme) ?? 0) + row.document_frequency);
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
   * The query's lexemes under every text search configuration present in the corpus (per word, remembered by
   * `QueryWordLexemes`, so a warm process sends no statement for known words), with their document
   * frequency among the pages the viewer may see: from the snapshot (shared pages), or counted through the GIN
   * index (one statement) over the shared pages and the viewer's own for lexemes it lacks. A lexeme no visible page
   * contains has frequency 0 (another tenant's private pages never count): it scores nothing, yet it is part of the
   * best score a page of its configuration could reach, so a configuration whose pages lack most of the query's
   * words cannot look as relevant as one whose pages have them all. `text` is already searchable (searchableText:
   * Chinese and Japanese cut into words, dotted names hyphenated, as the document store did to the pages).
   */
  private async queryLexemes(
    text: string,
    queryLanguage: string | null,
    corpus: CorpusSnapshot,
    viewer: string | null,
  ): Promise<{ rows: QueryLexemeRow[]; contentWords: Map<string, ConfigLexeme[]> }> {
    const byWord = await this.wordLexemes.byWord(wordsOf(text), corpus.configs);
    // A query is written in one language: its function words ("I", "it", "can") are dropped before the other
    // configurations read it, where they would be ordinary words matching every page of that language that quotes
    // English (and every English page misfiled under it). The language is the request's, else the configuration
    // whose stop words the query uses most (Postgres's own lists, for every language the corpus holds).
    // A requested language the corpus has no configuration for (Chinese, Polish, ...) says nothing about the query's
    // function words: the stop words decide then too.
    const requested = searchConfigNameOf(queryLanguage);
    const queryConfig = requested && corpus.configs.includes(requested) ? requested : stopWordConfigOf(byWord, corpus);
    let contentWords = [...byWord.keys()].filter((word) => (byWord.get(word) ?? []).length > 0);
    if (queryConfig && corpus.configs.includes(queryConfig)) {
      const inQueryLanguage = contentWords.filter((word) => (byWord.get(word) ?? []).some((entry) => entry.config === queryConfig));
      if (inQueryLanguage.length > 0) contentWords = inQueryLanguage;
    }
    const pairs = unionOf(contentWords.map((word) => byWord.get(word) ?? []));
    // Lexemes with a backslash cannot be written as a tsquery operand reliably: they never count.
    const usable = pairs.filter((pair) => !pair.lexeme.includes('\\'));
    const frequencies = await this.documentFrequencies(usable, corpus, viewer, queryConfig);
    const rows = usable.map((pair) => ({ config: pair.config, lexeme: pair.lexeme, document_frequency: frequencies.get(configLexemeKey(pair.config, pair.lexeme)) ?? 0 }));
    return { rows, contentWords: new Map(contentWords.map((word) => [word, byWord.get(word) ?? []])) };
  }

  /**
   * Document frequencies among the pages of each lexeme's configuration the viewer may see, keyed by
   * configLexemeKey: from the snapshot (shared pages), or counted through the GIN index (one statement) over the
   * shared pages and the viewer's own for the lexemes it lacks, so a page stored since the snapshot is found at
   * once. With the query's language known, only its own lexemes are counted live: the query's words under the
   * corpus's other configurations are mostly absent from their pages (a handful of pages filed under another
   * language made every search count five configurations' worth of them, a third of its throughput), and a page of
   * another language stored since the snapshot counts from the next one (at most statisticsTtlMs later).
   */
  private async documentFrequencies(
    pairs: { config: string; lexeme: string }[],
    corpus: CorpusSnapshot,
    viewer: string | null,
    queryConfig?: string,
  ): Promise<Map<string, number>> {
    const frequencies = new Map<string, number>();
    const unknownByKey = new Map<string, { config: string; lexeme: string }>();
    // Without a lexeme table (corpora above maximumDocumentsForLexemeTable) every frequency is counted live.
    const tabled = corpus.documentFrequencies.size > 0 && queryConfig !== undefined && corpus.configs.includes(queryConfig);
    const countedLive = (config: string) => !tabled || config === queryConfig;
    for (const pair of pairs) {
      const key = configLexemeKey(pair.config, pair.lexeme);
      const known = corpus.documentFrequencies.get(key);
      if (known !== undefined) frequencies.set(key, known);
      else if (countedLive(pair.config)) unknownByKey.set(key, pair);
      else frequencies.set(key, 0);
    }
    const unknown = [...unknownByKey.values()];
    if (unknown.length > 0) {
      const rows = await queryRows<{ config: string; lexeme: string; document_frequency: number }>(this.prisma, {
        name: 'sift_local_index_count_config_lexemes',
        text: `SELECT l.config, l.lexeme,
                      (SELECT count(*) FROM documents d
                       WHERE d.search_vector @@ l.operand AND sift_search_config(d.language) = l.config::regconfig
                         AND (d.owner_account_id IS NULL OR d.owner_account_id = $4::uuid))::int AS document_frequency
               FROM unnest($1::text[], $2::text[], $3::tsquery[]) AS l(config, lexeme, operand)`,
        values: [unknown.map((pair) => pair.config), unknown.map((pair) => pair.lexeme), unknown.map((pair) => tsqueryOperand(pair.lexeme)), viewer],
      });
      for (const row of rows) frequencies.set(configLexemeKey(row.config, row.lexeme), row.document_frequency);
    }
    return frequencies;
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
    if (row.published_date) {
      candidate.publishedDate = row.published_date.toISOString();
      candidate.publishedDateSource = row.source === 'import' ? 'import' : 'page_metadata';
    }
    if (row.language) candidate.language = row.language;
    return candidate;
  }
}

/**
 * The configuration under which most of the query's words are stop words (a word with lexemes under some
 * configuration and none under this one): the language the query is written in, read from its function words at no
 * cost (the lexemes are known already). Configurations can share a stop list for a script (Postgres's `russian`
 * reads Latin-script words as English), so a tie goes to the configuration of more pages. Undefined for a query
 * of content words only.
 */
function stopWordConfigOf(byWord: Map<string, ConfigLexeme[]>, corpus: CorpusSnapshot): string | undefined {
  let best: string | undefined;
  let bestCount = 0;
  for (const config of corpus.configs) {
    let count = 0;
    for (const entries of byWord.values()) if (entries.length > 0 && !entries.some((entry) => entry.config === config)) count += 1;
    if (count > bestCount || (count === bestCount && count > 0 && best !== undefined && documentsOf(corpus, config) > documentsOf(corpus, best))) {
      [best, bestCount] = [config, count];
    }
  }
  return best;
}

/**
 * The words' ranking and the dense one fused by reciprocal rank fusion, best maxResults first. A page in both keeps
 * the words' candidate (its chunks chosen by the query's words); its score is the fused score over the best a page
 * could reach (first in both), so in [0, 1] and in the fused order.
 */
function fusedRanking(lexical: SearchCandidate[], dense: SearchCandidate[], maxResults: number): SearchCandidate[] {
  const fused = new Map<string, { candidate: SearchCandidate; score: number }>();
  for (const list of [lexical, dense]) {
    list.forEach((candidate, rank) => {
      // One result per page as shown: the final URL (a viewer's own copy and the shared one are one page).
      const key = candidate.url;
      const contribution = 1 / (RRF_RANK_CONSTANT + rank + 1);
      const known = fused.get(key);
      if (known) known.score += contribution;
      else fused.set(key, { candidate, score: contribution });
    });
  }
  const best = 2 / (RRF_RANK_CONSTANT + 1);
  return [...fused.values()]
    .sort((left, right) => right.score - left.score)
    .slice(0, maxResults)
    .map(({ candidate, score }) => ({ ...candidate, score: Math.min(1, score / best) }));
}
