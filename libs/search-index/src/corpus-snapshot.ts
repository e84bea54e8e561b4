import { queryRows } from '@sift/persistence';
import type { PrismaClient } from '@sift/persistence';
import type { CorpusStatistics } from './bm25f-scorer';
import { LINK_HALF, LINK_WEIGHT, linkPriorSql, SITE_LINK_MAXIMUM_SITES, SITE_LINK_PRIOR_DOCUMENTS } from './link-prior';

export interface CorpusSnapshotOptions {
  /** Age after which the snapshot is rebuilt; 0 rebuilds before every use (tests). */
  ttlMs: number;
  /**
   * Above this many documents the lexeme table is not built (every lookup goes to the GIN index instead), nor the sites'
   * mean link priors (advanced depth's link prior then goes undivided).
   */
  maximumDocumentsForLexemeTable: number;
  /**
   * The share of the corpus's pages (or of one language's) that may have changed since the snapshot before a search
   * waits for new statistics; default MATERIAL_CHANGE_SHARE. Infinity keeps a snapshot for ttlMs whatever changes (tests
   * that compare scores under one snapshot while other files store pages).
   */
  refreshShare?: number;
}

/**
 * How many documents of a site's own count weigh as much as the corpus average in the site's length average: a
 * site with few pages is compared with the corpus, one with many with itself.
 */
const SITE_LENGTH_PRIOR_DOCUMENTS = 20;
/** Sites with fewer shared pages than this use the corpus average (their own would move it by under a third). */
const SITE_LENGTH_MINIMUM_DOCUMENTS = 10;
/** At most this many sites (the largest) carry their own length average into a search's statement. */
const SITE_LENGTH_MAXIMUM_SITES = 2000;

/**
 * The share of the corpus's pages that may have changed (stored, removed or indexed again: sift_document_changes) since
 * the snapshot before a search waits for new statistics instead of ranking with it (the default refreshShare). Statistics a few pages behind the
 * corpus rank as fresh ones do, and are rebuilt in the background once older than the TTL; a snapshot taken before an
 * import or a crawl that grew the corpus by a good share would set document frequencies counted among the new pages
 * against the old page count, and the old corpus's frequencies against the new pages.
 */
const MATERIAL_CHANGE_SHARE = 0.1;

/** How long a statistics build may wait for a connection, and run: a scan of the whole corpus (ts_stat). */
const BUILD_MAXIMUM_WAIT_MS = 60_000;
const BUILD_TIMEOUT_MS = 600_000;

/** The corpus's change count: how many times a page was stored, removed or indexed again (migration 20261128000000). */
const CHANGES_SQL = 'SELECT CASE WHEN is_called THEN last_value ELSE 0 END::float8 AS changes FROM sift_document_changes';

/** The key of a lexeme of one text search configuration in CorpusSnapshot.documentFrequencies. */
export function configLexemeKey(config: string, lexeme: string): string {
  return `${config}\u0000${lexeme}`;
}

export interface CorpusSnapshot extends CorpusStatistics {
  /** The corpus's change count (CHANGES_SQL) when the snapshot was taken, in the same transaction as its statistics. */
  changes: number;
  /** Which build of its cache made it (1, 2, …): a larger one began later. */
  generation: number;
  configs: string[];
  /**
   * Documents per text search configuration: a lexeme's idf is taken among the pages of its own configuration
   * (language), so a word of one language is not made rare by an index that mostly holds another.
   */
  documentCounts: ReadonlyMap<string, number>;
  /**
   * Document frequency of every (configuration, lexeme) in the shared pages when the snapshot was taken (empty when
   * not built), keyed by configLexemeKey. Shared pages only: a lexeme that only other tenants' private pages contain
   * must look absent to a search, or its effect on the scores would tell a caller that some account's pages contain it.
   */
  documentFrequencies: ReadonlyMap<string, number>;
  /**
   * The average length BM25 normalises a page's length against, per site (domain) with enough pages shorter than
   * the corpus's: a short abstract among short abstracts is not terse. Without it, one collection of long pages in
   * the index weakens length normalisation for every collection of short ones.
   */
  siteAverageWordCounts: { domains: string[]; averages: number[] };
}

/**
 * The mean link prior (1 + LINK_WEIGHT × n / (n + LINK_HALF), n a page's linking pages) of each site whose shared
 * pages are linked to, drawn towards 1 by SITE_LINK_PRIOR_DOCUMENTS pages without links; advanced depth's ranking
 * divides a page's prior by its site's. So the prior orders a site's pages among themselves and lifts a page its
 * site links to more than the site's others, but a site whose pages link to one another (a manual) does not rise as
 * a whole above a collection without links (abstracts, articles), and links from other sites still count.
 */
export interface SiteLinkPriors {
  domains: string[];
  means: number[];
}

/** No site's mean (every site's is taken as 1): basic and ultra-fast depth, and corpora above the scanning bound. */
export const NO_SITE_LINK_PRIORS: SiteLinkPriors = { domains: [], means: [] };

/** The client a snapshot's statements run on: its REPEATABLE READ transaction. */
type SnapshotTransaction = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

/** The sites' link priors with the corpus's change count when their scan began. */
interface BuiltSiteLinkPriors {
  priors: SiteLinkPriors;
  changes: number;
}

/**
 * A value built again once it is older than ttlMs (0: before every use). The old value is served while the new one is
 * built, so only the first use waits; a failed rebuild keeps the old value and the next use tries again.
 */
class RebuiltValue<T> {
  private latest?: { value: T; builtAt: number };
  private rebuilding?: Promise<T>;

  constructor(
    private readonly ttlMs: number,
    private readonly build: () => Promise<T>,
  ) {}

  async current(): Promise<T> {
    const latest = this.latest;
    if (!latest || this.ttlMs <= 0) return this.rebuild();
    if (Date.now() - latest.builtAt >= this.ttlMs) this.rebuild().catch(() => undefined);
    return latest.value;
  }

  /**
   * The current value once `fresh` accepts it, else the value of the rebuild under way, else of a new one: callers
   * that find the value stale together wait for one rebuild. `fresh` must accept every value whose build began after
   * the call, so the wait ends.
   */
  async currentWhere(fresh: (value: T) => boolean): Promise<T> {
    let value = await this.current();
    while (!fresh(value)) value = await this.rebuild();
    return value;
  }

  private rebuild(): Promise<T> {
    if (this.rebuilding) return this.rebuilding;
    this.rebuilding = this.build()
      .then((value) => {
        this.latest = { value, builtAt: Date.now() };
        return value;
      })
      .finally(() => {
        this.rebuilding = undefined;
      });
    return this.rebuilding;
  }
}

/**
 * Corpus statistics for BM25F: document count, average length, the text search configurations in use and, for
 * corpora small enough to scan, the document frequency of every lexeme (`ts_stat`). Counting one lexeme's
 * documents through the GIN index costs a heap visit per document (about 3 ms per common word on 10,000 pages),
 * which made the idf lookups the largest single cost of a search; the table makes them free. The statistics of one
 * snapshot are read in one transaction, so its page counts and document frequencies describe the same pages.
 *
 * A search reads the corpus's change count (one sequence read) and waits for new statistics when the corpus has
 * changed by a material share since the snapshot (an import or a crawl, in whichever process it ran); otherwise
 * a stale snapshot is served while a fresh one is built in the background, so no search waits for the rebuild.
 */
export class CorpusSnapshotCache {
  private readonly snapshots: RebuiltValue<CorpusSnapshot>;
  private readonly linkPriors: RebuiltValue<BuiltSiteLinkPriors>;
  private builds = 0;
  private changesRead?: Promise<number>;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly options: CorpusSnapshotOptions,
  ) {
    this.snapshots = new RebuiltValue(options.ttlMs, () => this.build());
    this.linkPriors = new RebuiltValue(options.ttlMs, () => this.buildSiteLinkPriors());
  }

  /** The snapshot to rank with: the cached one, unless the corpus has changed materially since it was taken. */
  async current(): Promise<CorpusSnapshot> {
    const [snapshot, changes] = await Promise.all([this.snapshots.current(), this.changes()]);
    if (!this.isMateriallyBehind(snapshot, snapshot.changes, changes)) return snapshot;
    return this.snapshots.currentWhere((candidate) => !this.isMateriallyBehind(candidate, candidate.changes, changes));
  }

  /**
   * Whether a document frequency counted live shows the snapshot a material share of its configuration's pages behind
   * the corpus: more pages contain the lexeme than the snapshot has pages of that configuration (language), by more
   * than the refresh share of them. That many pages were stored since, whatever share of the whole corpus they are.
   */
  isOutgrown(snapshot: CorpusSnapshot, config: string, documentFrequency: number): boolean {
    const documents = snapshot.documentCounts.get(config) ?? snapshot.documentCount;
    return documentFrequency - documents > this.refreshShare * documents;
  }

  /**
   * A snapshot whose build began after this call: a search found the one it had older than the corpus (a document
   * frequency counted live well above the snapshot's page count of its language: isOutgrown), whatever the change
   * count says.
   */
  refreshed(): Promise<CorpusSnapshot> {
    const after = this.builds;
    return this.snapshots.currentWhere((snapshot) => snapshot.generation > after);
  }

  /**
   * The sites' mean link priors, which only advanced depth reads: built on the first call, then like the snapshot
   * (rebuilt first when the corpus has changed materially since their scan), so a process that never searches at
   * advanced depth (the research worker, basic-depth gateways) never scans the link graph.
   */
  async siteLinkPriors(snapshot: CorpusSnapshot): Promise<SiteLinkPriors> {
    const built = await this.linkPriors.currentWhere((candidate) => !this.isMateriallyBehind(snapshot, candidate.changes, snapshot.changes));
    return built.priors;
  }

  /**
   * Whether statistics taken at change count `changes` are a material share of the snapshot's pages behind the corpus
   * at change count `current`. Only behind: statistics taken later than `current` (an import still running) are fresh,
   * so a wait for statistics taken after a count was read always ends.
   */
  private isMateriallyBehind(snapshot: CorpusSnapshot, changes: number, current: number): boolean {
    return current - changes > this.refreshShare * snapshot.documentCount;
  }

  private get refreshShare(): number {
    return this.options.refreshShare ?? MATERIAL_CHANGE_SHARE;
  }

  /** The corpus's change count now; searches that ask while a read is under way share it. */
  private changes(): Promise<number> {
    this.changesRead ??= queryRows<{ changes: number }>(this.prisma, { name: 'sift_corpus_changes', text: CHANGES_SQL, values: [] })
      .then(([row]) => row.changes)
      .finally(() => {
        this.changesRead = undefined;
      });
    return this.changesRead;
  }

  private async build(): Promise<CorpusSnapshot> {
    this.builds += 1;
    const generation = this.builds;
    // REPEATABLE READ: every statement sees the pages as the first did, however many an import stores meanwhile.
    return this.prisma.$transaction(
      async (transaction) => {
        const [{ changes }] = await transaction.$queryRawUnsafe<{ changes: number }[]>(CHANGES_SQL);
        const rows = await transaction.$queryRaw<{ config: string; documents: number; words: number }[]>`
          SELECT sift_search_config(language)::text AS config, count(*)::int AS documents,
                 coalesce(sum(word_count), 0)::float8 AS words
          FROM documents GROUP BY 1 ORDER BY 1`;
        const documentCount = rows.reduce((sum, row) => sum + row.documents, 0);
        const words = rows.reduce((sum, row) => sum + row.words, 0);
        const documentFrequencies = new Map<string, number>();
        if (documentCount > 0 && documentCount <= this.options.maximumDocumentsForLexemeTable) {
          for (const { config } of rows) {
            const pagesOfConfig = `SELECT search_vector FROM documents WHERE owner_account_id IS NULL AND sift_search_config(language) = '${config.replace(/'/g, "''")}'::regconfig`;
            const lexemes = await transaction.$queryRaw<{ word: string; ndoc: number }[]>`SELECT word, ndoc FROM ts_stat(${pagesOfConfig})`;
            for (const lexeme of lexemes) documentFrequencies.set(configLexemeKey(config, lexeme.word), lexeme.ndoc);
          }
        }
        const averageWordCount = documentCount > 0 ? words / documentCount : 0;
        return {
          changes,
          generation,
          documentCount,
          averageWordCount,
          configs: rows.map((row) => row.config),
          documentCounts: new Map(rows.map((row) => [row.config, row.documents])),
          documentFrequencies,
          siteAverageWordCounts: await this.siteAverageWordCounts(transaction, averageWordCount),
        };
      },
      { isolationLevel: 'RepeatableRead', maxWait: BUILD_MAXIMUM_WAIT_MS, timeout: BUILD_TIMEOUT_MS },
    );
  }

  /**
   * The length average of each large site whose pages are shorter than the corpus's, drawn towards the corpus
   * average by a prior worth 20 pages. A site of short pages (abstracts) is normalised among its own pages instead of
   * against an average that long pages elsewhere inflate; a site of long pages keeps the corpus average, because a
   * long page usually covers more topics (manuals, references) and that should keep costing it, as it did before.
   */
  private async siteAverageWordCounts(transaction: SnapshotTransaction, corpusAverage: number): Promise<CorpusSnapshot['siteAverageWordCounts']> {
    const sites = await transaction.$queryRaw<{ domain: string; documents: number; words: number }[]>`
      SELECT domain, count(*)::int AS documents, coalesce(sum(word_count), 0)::float8 AS words
      FROM documents WHERE owner_account_id IS NULL
      GROUP BY domain HAVING count(*) >= ${SITE_LENGTH_MINIMUM_DOCUMENTS} AND avg(word_count) < ${corpusAverage}
      ORDER BY 2 DESC, 1 LIMIT ${SITE_LENGTH_MAXIMUM_SITES}`;
    return {
      domains: sites.map((site) => site.domain),
      averages: sites.map((site) => (site.words + SITE_LENGTH_PRIOR_DOCUMENTS * corpusAverage) / (site.documents + SITE_LENGTH_PRIOR_DOCUMENTS)),
    };
  }

  /**
   * SiteLinkPriors: shared pages and the links of shared pages only, as the document frequencies. Each page of a site
   * with a linked page brings its prior (1 without links), and SITE_LINK_PRIOR_DOCUMENTS pages of prior 1 are added.
   * Like the lexeme table, a scan of the whole link graph: above the same bound the ranking goes without it.
   */
  private async buildSiteLinkPriors(): Promise<BuiltSiteLinkPriors> {
    const changes = await this.changes();
    const { documentCount } = await this.snapshots.current();
    if (documentCount === 0 || documentCount > this.options.maximumDocumentsForLexemeTable) return { priors: NO_SITE_LINK_PRIORS, changes };
    const sites = await queryRows<{ domain: string; documents: number; priors: number }>(this.prisma, {
      text: `SELECT d.domain, count(*)::int AS documents, sum(${linkPriorSql('coalesce(l.linking, 0)', '$1::float8', '$2::float8')})::float8 AS priors
             FROM documents d
             LEFT JOIN (SELECT target_url, count(*) AS linking FROM document_links WHERE owner_account_id IS NULL GROUP BY 1) l
               ON l.target_url = d.url
             WHERE d.owner_account_id IS NULL
             GROUP BY d.domain HAVING count(l.target_url) > 0
             ORDER BY 2 DESC, 1 LIMIT $3::int`,
      values: [LINK_WEIGHT, LINK_HALF, SITE_LINK_MAXIMUM_SITES],
    });
    return {
      priors: {
        domains: sites.map((site) => site.domain),
        means: sites.map((site) => (site.priors + SITE_LINK_PRIOR_DOCUMENTS) / (site.documents + SITE_LINK_PRIOR_DOCUMENTS)),
      },
      changes,
    };
  }
}
