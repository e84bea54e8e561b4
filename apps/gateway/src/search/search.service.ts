import { Inject, Injectable } from '@nestjs/common';
import type { SearchDepth } from '@sift/api-contracts';
import { ImageResultDto, SearchRequestDto, SearchResponseDto, SearchResultDto } from '@sift/api-contracts';
import { Reservation, searchCredits } from '@sift/billing';
import { ImageContext, SourceChunk } from '@sift/llm';
import { type ConfiguredModels, RerankService } from '@sift/models';
import { isRetryableFailure } from '@sift/queue-contracts';
import { CHUNK_SEPARATOR } from '@sift/ranking';
import { containsQuotedPhrases, pageLanguageOf, SearchFanOut, SearchQuery } from '@sift/search-index';
import { languageCodeOf } from '@sift/pages';
import { MeteringService } from '../billing/metering.service';
import { GATEWAY_CONFIG, GatewayAppConfig } from '../core/core.module';
import { pageViewerOf, RequestContext, responseTimeSeconds } from '../caller/request-context';
import { failuresRecordedWith, NO_USAGE, RequestOutcome } from '../request-log/request-outcome';
import { chunkSources, ChunkedSource, sourceChunks } from './result-chunks';
import { FetchedChunkSimilarity } from './fetched-chunk-similarity';
import { searchResultId } from './result-id';
import { type SearchDepthProfile, searchDepthProfiles } from './search-depth-profile';
import { SearchAnswerService } from './search-answer.service';
import { resolveSearch, ResolvedSearch } from './search-parameters';
import { fetchFailureWarning, undatedWarnings } from './search-warnings';
import { resultsWithinTokenBudget, searchResultOf } from '../pages/page-responses';
import { MODELS } from '../pages/pages.module';
import type { SourceContent } from './source-content';
import { SourceContentService } from './source-content.service';

/** An answer needs a few sources even when the caller asked for no results (max_results 0). */
const ANSWER_SOURCES = { basic: 5, advanced: 10 } as const;
const MAXIMUM_CANDIDATES = 60;
const IMAGES_PER_RESULT = 5;
const TOP_LEVEL_IMAGES = 10;
/**
 * advanced, upstream results: how much of the final score is the retrieval score, the rest being the best chunk's
 * relevance. Local-index results keep their own score: the index ranked their whole text (with feedback terms), and
 * blending in the chunk ranking's unstemmed BM25 over the candidates alone lowered Cranfield nDCG@10 on the mixed
 * index from 0.369 to 0.347 (docs/benchmarks.md, "Search quality").
 */
const RETRIEVAL_WEIGHT = 0.6;
/** advanced: the best results the reranker reads (each its title and chosen chunks), the rest keeping their order. */
const RERANKED_RESULTS = 30;
/** A passage as the reranker reads it: a cross-encoder reads about 512 tokens, some 2,000 characters of English. */
const RERANK_PASSAGE_CHARACTERS = 2_000;
/**
 * The least time a model call of a search gets when its latency budget is spent (the pages took it all): the targets
 * leave 0.4 s beyond basic's and advanced's budgets (docs/search-latency.md).
 */
const MODEL_MINIMUM_MS = 250;

/** Whether the reranker ordered advanced depth's results: `model`, `fallback` (it failed or was too slow), or null (none configured, or another depth). */
type RerankMode = 'model' | 'fallback' | null;

interface RankedEntry {
  entry: ChunkedSource;
  score: number;
}

/**
 * POST /search: resolve the parameters → ask the providers and fuse their lists → get each candidate's
 * content as the depth allows → drop what the content-level filters reject → chunk and score → answer and
 * images → charge.
 */
@Injectable()
export class SearchService {
  private readonly profiles: Readonly<Record<SearchDepth, SearchDepthProfile>>;
  private readonly chunkSimilarity: FetchedChunkSimilarity;

  constructor(
    private readonly metering: MeteringService,
    private readonly providers: SearchFanOut,
    private readonly content: SourceContentService,
    private readonly answers: SearchAnswerService,
    private readonly reranker: RerankService,
    @Inject(MODELS) models: ConfiguredModels,
    @Inject(GATEWAY_CONFIG) config: GatewayAppConfig,
  ) {
    this.profiles = searchDepthProfiles(config);
    this.chunkSimilarity = new FetchedChunkSimilarity(models);
  }

  async search(context: RequestContext, body: SearchRequestDto, explicitFields: ReadonlySet<string>): Promise<RequestOutcome<SearchResponseDto>> {
    const search = resolveSearch(body, explicitFields);
    const credits = searchCredits(search.depth);
    return failuresRecordedWith({ ...NO_USAGE, depth: search.depth }, () =>
      this.metering.withReservation(context, 'search', { maximumCredits: credits, minimumCredits: credits }, (reservation) =>
        this.searchWithin(context, body, search, credits, reservation),
      ),
    );
  }

  private async searchWithin(
    context: RequestContext,
    body: SearchRequestDto,
    search: ResolvedSearch,
    credits: number,
    reservation: Reservation | null,
  ): Promise<RequestOutcome<SearchResponseDto>> {
    const profile = this.profiles[search.depth];
    const startedAt = Date.now() - elapsedMs(context);

    const wanted = Math.max(search.maxResults, search.answerDepth ? ANSWER_SOURCES[search.answerDepth] : 0);
    const candidates = Math.min(MAXIMUM_CANDIDATES, wanted * profile.candidateFactor);
    const fanOut = await this.providers.search(this.providerQuery(context, search, candidates, Math.min(MAXIMUM_CANDIDATES, candidates * profile.fetchFactor), profile.providerDeadlineMs));
    // A caller's timeout is how long they will wait for content: the budget is theirs, and the best pages win.
    const budgetMs = search.timeoutMs ?? profile.answerBudgetMs;
    const contentStartedAt = Date.now();
    const loaded = await this.content.load(context, search, fanOut.candidates, {
      content: profile.content,
      wanted,
      // Depths that never fetch have only their store lookups to wait for.
      answerBy: profile.content === 'fetch' ? startedAt + budgetMs : Number.POSITIVE_INFINITY,
      hedgeFrom: search.timeoutMs === undefined && profile.hedgeAfterMs !== undefined ? startedAt + profile.hedgeAfterMs : undefined,
      waitForAll: profile.crossSourceRanking,
      fetchDeadline: startedAt + Math.max(profile.backgroundDeadlineMs, budgetMs),
    });
    const contentEndedAt = Date.now();
    const filtered = loaded.sources.filter((source) => this.passesContentFilters(search, source));
    const kept = profile.crossSourceRanking ? filtered : preferPages(filtered, wanted);
    const loading = kept.filter((source) => source.loading).slice(0, search.maxResults);
    const answerBy = startedAt + budgetMs;
    const perSource = sourceChunks(kept, { crossSource: profile.crossSourceRanking });
    // Depths that fetch pages choose their chunks by meaning as well, when an embedding model is configured.
    const similarity =
      profile.content === 'fetch' && this.chunkSimilarity.enabled
        ? await this.chunkSimilarity.similarities(search.query, kept, perSource, modelTimeLeft(answerBy))
        : { mode: null };
    const chunked = chunkSources(
      kept,
      {
        query: search.query,
        chunksPerSource: search.depth === 'ultra-fast' ? 1 : search.chunksPerSource,
        crossSource: profile.crossSourceRanking,
      },
      perSource,
      similarity.similarities,
    );
    const retrieved = chunked
      .map((entry) => ({
        entry,
        score: profile.crossSourceRanking && entry.source.candidate.contentIsSnippet
          ? RETRIEVAL_WEIGHT * entry.source.candidate.score + (1 - RETRIEVAL_WEIGHT) * entry.chunkRelevance
          : entry.source.candidate.score,
      }))
      .sort((left, right) => right.score - left.score);
    const { ranked, rerank } =
      search.depth === 'advanced' && this.reranker.enabled
        ? await this.rerank(search.query, retrieved, modelTimeLeft(answerBy))
        : { ranked: retrieved, rerank: null as RerankMode };

    const shown = ranked.slice(0, search.maxResults);
    const descriptions = search.includeImageDescriptions
      ? await this.answers.describe(this.imageContexts(shown.map(({ entry }) => entry)), search.query, profile.answerDeadlineMs)
      : undefined;
    const { results, tokenBudget } = resultsWithinTokenBudget(
      shown.map(({ entry, score }) => this.toResult(context, search, entry, score, descriptions?.descriptions)),
      body.max_tokens,
    );
    const answer = search.answerDepth
      ? await this.answers.answer(search.query, this.answerChunks(ranked.slice(0, wanted).map(({ entry }) => entry)), search.answerDepth, profile.answerDeadlineMs)
      : undefined;

    const detail = {
      answer_mode: answer?.mode ?? null,
      ...(answer?.fallbackReason ? { answer_fallback_reason: answer.fallbackReason } : {}),
      image_description_mode: descriptions?.mode ?? null,
      providers: fanOut.providers,
      candidates: fanOut.candidates.length,
      fetched: loaded.fetched,
      from_cache: loaded.fromCache,
      fetch_failures: loaded.fetchFailures,
      ...(loaded.fetchFailures > 0 ? { fetch_failed: fetchFailuresOf(loaded.sources) } : {}),
      still_loading: loaded.stillLoading,
      content_wait: { ended: loaded.waitEnded, budget_ms: budgetMs, waited_ms: contentEndedAt - contentStartedAt },
      chunk_embeddings: similarity.mode,
      rerank,
      results: results.length,
    };
    const charged = await this.metering.settle(context, reservation, [{ kind: 'search', credits }]);
    const shownSources = shown.map(({ entry }) => entry.source);
    const warnings = [
      ...search.warnings,
      ...undatedWarnings(search, shownSources, fanOut.providers.some((provider) => provider.name !== 'local')),
      fetchFailureWarning(search, shownSources, loaded.fetched + loaded.fromCache > 0),
      loading.length > 0 ? stillLoadingWarning(loading, search.depth, budgetMs) : undefined,
    ].filter((warning): warning is string => warning !== undefined);
    const response: SearchResponseDto = {
      query: body.query,
      results,
      images: search.includeImages ? this.topLevelImages(shown.map(({ entry }) => entry), descriptions?.descriptions) : [],
      ...(answer ? { answer: answer.answer } : {}),
      response_time: responseTimeSeconds(context),
      request_id: context.requestId,
      ...(search.autoParameters ? { auto_parameters: search.autoParameters } : {}),
      ...(search.includeUsage ? { usage: { credits: charged } } : {}),
      ...(warnings.length > 0 ? { warnings } : {}),
      ...(tokenBudget ? { token_budget: tokenBudget } : {}),
    };
    return { response, usage: { depth: search.depth, credits: charged, detail } };
  }

  /**
   * advanced: the best results reordered by the reranker, each read as its title and the chunks it shows. The scores
   * stay the ones the results had, given out again in the model's order (a reranker's own scores are on its own scale),
   * so they still fall down the list. A reranker that fails or is too slow leaves the order as it was.
   */
  private async rerank(query: string, retrieved: RankedEntry[], deadlineMs: number): Promise<{ ranked: RankedEntry[]; rerank: RerankMode }> {
    const head = retrieved.slice(0, RERANKED_RESULTS);
    const passages = head.map(({ entry }) => `${entry.source.page.title}\n${entry.chunks.join('\n')}`.slice(0, RERANK_PASSAGE_CHARACTERS));
    const { order, reranked } = await this.reranker.rerank(query, passages, deadlineMs);
    if (!reranked) return { ranked: retrieved, rerank: head.length < 2 ? null : 'fallback' };
    const reordered = order.map((position, rank) => ({ entry: head[position].entry, score: head[rank].score }));
    return { ranked: [...reordered, ...retrieved.slice(head.length)], rerank: 'model' };
  }

  private providerQuery(context: RequestContext, search: ResolvedSearch, maxResults: number, upstreamMaxResults: number, deadlineMs: number): SearchQuery {
    return {
      query: search.query,
      viewer: pageViewerOf(context),
      maxResults,
      upstreamMaxResults,
      depth: search.depth,
      topic: search.topic,
      timeRange: search.timeRange,
      startDate: search.startDate,
      endDate: search.endDate,
      ...(search.includeUndated === undefined ? {} : { includeUndated: search.includeUndated }),
      includeDomains: search.includeDomains,
      excludeDomains: search.excludeDomains,
      includeDomainsMode: search.includeDomainsMode,
      country: search.country,
      language: search.language,
      filterByLanguage: search.filterByLanguage,
      exactMatch: search.exactMatch,
      safeSearch: search.safeSearch,
      includeMarkdown: search.rawContentFormat === 'markdown',
      // The local index picks each page's chunks itself, except for advanced depth's ranking across pages.
      ...(search.depth === 'advanced' ? {} : { chunksPerSource: search.depth === 'ultra-fast' ? 1 : search.chunksPerSource }),
      includeText: search.rawContentFormat === 'text',
      deadlineMs,
    };
  }

  /** The filters the local index applies in SQL, applied again to pages fetched for upstream results. */
  private passesContentFilters(search: ResolvedSearch, source: SourceContent): boolean {
    if (source.filteredAtSource) return true;
    const { page } = source;
    if (search.safeSearch && page.isUnsafe) return false;
    if (search.exactMatch && !containsQuotedPhrases(search.query, `${page.title}\n${page.text}`)) return false;
    if (search.filterByLanguage && pageLanguageOf(page.language, page.text) !== languageCodeOf(search.language)) return false;
    return true;
  }

  private toResult(
    context: RequestContext,
    search: ResolvedSearch,
    entry: ChunkedSource,
    score: number,
    descriptions?: Map<string, string>,
  ): SearchResultDto {
    const { source } = entry;
    return searchResultOf(source, {
      id: searchResultId(context.requestId, source.candidate.url),
      content: entry.chunks.join(CHUNK_SEPARATOR),
      score: Math.round(Math.min(1, Math.max(0, score)) * 1e6) / 1e6,
      rawContentFormat: search.rawContentFormat,
      includePublishedDate: search.topic === 'news',
      includeFavicon: search.includeFavicon,
      images: search.includeImages ? this.describedImages(source.page.images.slice(0, IMAGES_PER_RESULT).map((image) => image.url), descriptions) : undefined,
    });
  }

  private topLevelImages(entries: ChunkedSource[], descriptions?: Map<string, string>): string[] | ImageResultDto[] {
    const urls = [...new Set(entries.flatMap((entry) => entry.source.page.images.map((image) => image.url)))].slice(0, TOP_LEVEL_IMAGES);
    return this.describedImages(urls, descriptions);
  }

  private describedImages(urls: string[], descriptions?: Map<string, string>): string[] | ImageResultDto[] {
    if (!descriptions) return urls;
    return urls.map((url) => ({ url, description: descriptions.get(url) ?? '' }));
  }

  private imageContexts(entries: ChunkedSource[]): ImageContext[] {
    const seen = new Set<string>();
    const contexts: ImageContext[] = [];
    for (const { source } of entries) {
      for (const image of source.page.images.slice(0, TOP_LEVEL_IMAGES)) {
        if (seen.has(image.url)) continue;
        seen.add(image.url);
        contexts.push({ url: image.url, alt: image.alt, pageTitle: source.page.title });
      }
    }
    return contexts;
  }

  private answerChunks(entries: ChunkedSource[]): SourceChunk[] {
    return entries.flatMap(({ source, chunks }) => chunks.map((chunk) => ({ url: source.candidate.url, title: source.page.title, content: chunk })));
  }
}

/**
 * The `wanted` sources a shallow ranking shows, in their rank order, taken first among those with content: a page
 * still loading or whose fetch failed is shown by its snippet only when too few other candidates have their page.
 */
function preferPages(sources: readonly SourceContent[], wanted: number): SourceContent[] {
  const withPage = sources.filter((source) => !source.loading && !source.fetchFailed);
  if (withPage.length >= wanted) return withPage.slice(0, wanted);
  const chosen = new Set([...withPage, ...sources.filter((source) => source.loading || source.fetchFailed).slice(0, wanted - withPage.length)]);
  return sources.filter((source) => chosen.has(source));
}

/** The request log's detail of each failed page fetch: the URL, why, and whether a retry may pass. */
function fetchFailuresOf(sources: readonly SourceContent[]): { url: string; error: string; error_code: string; retryable: boolean }[] {
  return sources.flatMap((source) =>
    source.fetchFailure
      ? [{ url: source.candidate.url, error: source.fetchFailure.error, error_code: source.fetchFailure.errorCode, retryable: isRetryableFailure(source.fetchFailure.errorCode) }]
      : [],
  );
}

function stillLoadingWarning(loading: readonly SourceContent[], depth: string, budgetMs: number): string {
  const urls = loading.map((source) => source.candidate.url).join(', ');
  return (
    `${loading.length === 1 ? '1 result shows' : `${loading.length} results show`} the search engine's snippet instead of page content: ` +
    `the page did not answer within ${depth} depth's ${budgetMs / 1000} s budget (${urls}). It is still being fetched and will be ` +
    'served from the store by the next request; set timeout to wait longer.'
  );
}

/** Time left until the latency budget, and at least MODEL_MINIMUM_MS: a model call's deadline. */
function modelTimeLeft(answerBy: number): number {
  return Math.max(MODEL_MINIMUM_MS, Math.floor(answerBy - Date.now()));
}

/** Whole milliseconds since the request arrived: budgets count from there, not from when the search began. */
function elapsedMs(context: RequestContext): number {
  return Number((process.hrtime.bigint() - context.startedAt) / 1_000_000n);
}
