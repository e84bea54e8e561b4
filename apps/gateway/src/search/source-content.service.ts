import { Inject, Injectable, Logger } from '@nestjs/common';
import { conventionalFavicon, type WebPage, webPageOf } from '@sift/content-extraction';
import { JobQueue, JobTimeoutError } from '@sift/queue';
import { ExtractUrlJob, ExtractUrlResult } from '@sift/queue-contracts';
import { PublishedDateSource, SearchCandidate } from '@sift/search-index';
import { PageRepository, type StoredPage, storedCopiesAnswering } from '@sift/pages';
import { pageViewerOf, type RequestContext } from '../caller/request-context';
import { GATEWAY_CONFIG, GatewayAppConfig } from '../core/core.module';
import type { ResolvedSearch } from './search-parameters';
import { encodeAhead } from '../http/token-budget';
import type { SourceContent } from './source-content';
import { atWallClock } from './wall-clock-timer';

/** Time the gateway keeps after the worker's deadline: the queue hand-off and the reply. */
const QUEUE_MARGIN_MS = 500;
/** Below this a fetch cannot finish; the snippet is used instead of starting one. */
const MINIMUM_FETCH_MS = 500;

export interface ContentPlan {
  content: 'index' | 'cache' | 'fetch';
  /** Sources the answer needs with their page: the results shown, or the sources of the answer. */
  wanted: number;
  /** Epoch milliseconds: the latency budget. The answer stops waiting for pages then. */
  answerBy: number;
  /**
   * Epoch milliseconds from which the first `wanted` candidates to have their page win over better-ranked ones still
   * loading. Absent: only the budget (or every page arriving) ends the wait.
   */
  hedgeFrom?: number;
  /** Every candidate's content is ranked (advanced): the best-ranked pages arriving is not enough to answer. */
  waitForAll: boolean;
  /** Epoch milliseconds by which a fetch must have answered, in the background once the answer has gone. */
  fetchDeadline: number;
}

/** What ended the wait for pages: all arrived, the best-ranked did, the first `wanted` did, or the budget ran out. */
export type ContentWaitEnd = 'complete' | 'best' | 'first' | 'budget';

export interface ContentOutcome {
  sources: SourceContent[];
  fetched: number;
  fromCache: number;
  fetchFailures: number;
  /** Pages still loading when the answer went: their fetches go on and store them for the next request. */
  stillLoading: number;
  waitEnded: ContentWaitEnd;
}

/** One candidate while its content is being looked for: the index's text, a stored or fetched page, only the snippet, a failed fetch, or not yet known. */
interface CandidateState {
  candidate: SearchCandidate;
  source?: SourceContent;
  kind?: 'index' | 'cached' | 'page' | 'snippet' | 'failed';
}

/**
 * The content of each candidate. Local-index candidates carry their stored text. Upstream candidates (SearXNG
 * snippets) get the stored copy when it is fresh and holds what the search needs (the request's one lookup of the
 * store), else (basic and advanced) the page is acquired by the extractor worker through the extract queue, which
 * answers with the whole page (and stores it unless the account keeps nothing): the gateway itself never fetches a page.
 *
 * The wait for fetched pages is bounded by the depth's latency budget, not by the slowest page: it ends as soon as
 * the best-ranked candidates have their page, or (from hedgeFrom on) as soon as enough candidates have theirs, or when
 * the budget is spent. A page still loading then is shown by its snippet, and its fetch goes on to the store.
 */
@Injectable()
export class SourceContentService {
  private readonly logger = new Logger('search');

  constructor(
    private readonly pages: PageRepository,
    private readonly jobQueue: JobQueue,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayAppConfig,
  ) {}

  async load(context: RequestContext, search: ResolvedSearch, candidates: SearchCandidate[], plan: ContentPlan): Promise<ContentOutcome> {
    // The local index's candidates carry their content: they are never "loading", even when the providers took the
    // whole budget (a cold first search), so they are settled before the wait begins.
    const states: CandidateState[] = candidates.map((candidate) =>
      candidate.contentIsSnippet ? { candidate } : { candidate, kind: 'index' as const, source: this.fromIndex(candidate) },
    );
    const copies = this.storedCopies(context, search, states, plan);
    const waitEnded = await new Promise<ContentWaitEnd>((resolve) => {
      const cancels: Array<() => void> = [];
      let ended = false;
      const check = (): void => {
        if (ended) return;
        const end = this.waitEnd(states, plan, Date.now());
        if (!end) return;
        ended = true;
        for (const cancel of cancels) cancel();
        resolve(end);
      };
      // By the wall clock waitEnd reads: a plain timer can fire a millisecond early, find the budget not yet spent,
      // and leave the search waiting for every page, with nothing to check again.
      for (const at of [plan.hedgeFrom, plan.answerBy]) {
        if (at !== undefined && Number.isFinite(at)) cancels.push(atWallClock(at, check));
      }
      for (const state of states) {
        if (state.kind !== undefined) continue;
        void this.contentOf(context, search, state.candidate, plan, copies)
          .catch((error: unknown) => {
            this.logger.warn(`content of ${state.candidate.url} failed: ${(error as Error).message}`);
            const fetchFailure = { error: 'Internal error while fetching this page.', errorCode: 'internal' as const };
            return { kind: 'failed' as const, source: { ...this.fromSnippet(state.candidate), fetchFailed: true, fetchFailure } };
          })
          .then((settled) => {
            Object.assign(state, settled);
            check();
          });
      }
      check();
    });

    const outcome: ContentOutcome = { sources: [], fetched: 0, fromCache: 0, fetchFailures: 0, stillLoading: 0, waitEnded };
    outcome.sources = states.map((state) => {
      if (state.kind === 'page') outcome.fetched += 1;
      else if (state.kind === 'cached') outcome.fromCache += 1;
      else if (state.kind === 'failed') outcome.fetchFailures += 1;
      if (state.source) return state.source;
      outcome.stillLoading += 1;
      return { ...this.fromSnippet(state.candidate), loading: true };
    });
    return outcome;
  }

  /** Whether the wait for pages ends now, and why; undefined while it goes on. */
  private waitEnd(states: readonly CandidateState[], plan: ContentPlan, now: number): ContentWaitEnd | undefined {
    if (states.every((state) => state.kind !== undefined)) return 'complete';
    if (!plan.waitForAll && this.bestHavePages(states, plan.wanted)) return 'best';
    const withPage = states.filter((state) => state.kind === 'index' || state.kind === 'cached' || state.kind === 'page').length;
    if (plan.hedgeFrom !== undefined && now >= plan.hedgeFrom && withPage >= plan.wanted) return 'first';
    if (now >= plan.answerBy) return 'budget';
    return undefined;
  }

  /**
   * True when waiting longer cannot change the answer: in rank order, skipping candidates whose page failed (a
   * later candidate takes their place), the first `wanted` all have their content.
   */
  private bestHavePages(states: readonly CandidateState[], wanted: number): boolean {
    let ready = 0;
    for (const state of states) {
      if (ready >= wanted) return true;
      if (state.kind === undefined) return false;
      if (state.kind !== 'failed') ready += 1;
    }
    return true;
  }

  private async contentOf(
    context: RequestContext,
    search: ResolvedSearch,
    candidate: SearchCandidate,
    plan: ContentPlan,
    copies: Promise<Map<string, StoredPage>>,
  ): Promise<Required<Omit<CandidateState, 'candidate'>>> {
    if (!candidate.contentIsSnippet) return { kind: 'index', source: this.fromIndex(candidate) };
    if (plan.content === 'index') return { kind: 'snippet', source: this.fromSnippet(candidate) };
    const cached = (await copies).get(candidate.url);
    if (cached) return { kind: 'cached', source: this.fromPage(candidate, cached.page, dateSourceOfStored(cached)) };
    if (plan.content === 'cache') return { kind: 'snippet', source: this.fromSnippet(candidate) };
    const fetched = await this.fetch(context, search, candidate, plan.fetchDeadline);
    if (!fetched.ok) return { kind: 'failed', source: { ...this.fromSnippet(candidate), fetchFailed: true, fetchFailure: fetched.failure } };
    // Its raw content's tokens are counted now, while the search still waits for other pages, not after the wait.
    if (search.maxTokens !== undefined && search.rawContentFormat && Date.now() < plan.answerBy) {
      encodeAhead(search.rawContentFormat === 'text' ? fetched.source.page.text : fetched.source.page.markdown, search.maxTokens);
    }
    return { kind: 'page', source: fetched.source };
  }

  private fromIndex(candidate: SearchCandidate): SourceContent {
    return {
      candidate,
      page: candidatePage(candidate, candidate.markdown),
      ...(candidate.publishedDateSource ? { publishedDateSource: candidate.publishedDateSource } : {}),
      snippetOnly: false,
      ...(candidate.chunks ? { chunks: candidate.chunks } : {}),
      // The local index already dropped unsafe documents when safe_search was on.
      filteredAtSource: true,
    };
  }

  private fromSnippet(candidate: SearchCandidate): SourceContent {
    return {
      candidate,
      page: candidatePage(candidate),
      ...(candidate.publishedDateSource ? { publishedDateSource: candidate.publishedDateSource } : {}),
      snippetOnly: true,
      filteredAtSource: false,
    };
  }

  /**
   * A stored or fetched page, with the candidate's title, language, date and images where the page has none.
   * `pageDateSource` is where the page's own date came from, when it states one.
   */
  private fromPage(
    candidate: SearchCandidate,
    page: WebPage,
    pageDateSource: PublishedDateSource = 'page_metadata',
    favicon: string | undefined = conventionalFavicon(candidate.url),
  ): SourceContent {
    const publishedDateSource = page.publishedDate ? pageDateSource : candidate.publishedDateSource;
    return {
      candidate,
      page: {
        ...page,
        title: page.title || candidate.title,
        markdown: page.markdown || page.text,
        language: page.language ?? candidate.language,
        publishedDate: page.publishedDate ?? candidate.publishedDate,
        images: page.images.length > 0 ? page.images : candidateImages(candidate),
        favicon,
      },
      ...(publishedDateSource ? { publishedDateSource } : {}),
      snippetOnly: false,
      filteredAtSource: false,
    };
  }

  /**
   * The stored copies of the pages still to be looked for that hold what this search needs of them, from the
   * request's one lookup (storedCopiesAnswering). The budget does not wait for it; a store that fails or has not
   * answered within STORE_LOOKUP_MS answers none, and the pages are fetched (in the background once the answer has gone).
   */
  private storedCopies(context: RequestContext, search: ResolvedSearch, states: readonly CandidateState[], plan: ContentPlan): Promise<Map<string, StoredPage>> {
    const wanted = {
      viewer: pageViewerOf(context),
      urls: plan.content === 'index' ? [] : states.filter((state) => state.kind === undefined).map((state) => state.candidate.url),
      maxAgeMs: this.config.DOCUMENT_CACHE_SECONDS * 1000,
      needs: { extractDepth: 'basic' as const, format: search.rawContentFormat ?? 'text', includeImages: search.includeImages },
    };
    return storedCopiesAnswering(this.pages, wanted, (error) => {
      this.logger.warn(`document store lookup failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /** The page fetched by the extractor worker, or why it could not be. */
  private async fetch(context: RequestContext, search: ResolvedSearch, candidate: SearchCandidate, deadline: number): Promise<FetchOutcome> {
    const remaining = Math.floor(deadline - Date.now());
    if (remaining < MINIMUM_FETCH_MS + QUEUE_MARGIN_MS) return { ok: false, failure: { error: 'No time was left to fetch the page.', errorCode: 'timeout' } };
    const caller = context.caller;
    let result: ExtractUrlResult;
    try {
      result = await this.jobQueue.enqueueAndWait(
        ExtractUrlJob,
        {
          requestId: context.requestId,
          accountId: caller && !caller.keyless ? caller.accountId : 'keyless',
          url: candidate.url,
          extractDepth: 'basic',
          format: 'markdown',
          timeoutMs: remaining - QUEUE_MARGIN_MS,
          includeImages: true,
          includeFavicon: true,
          chunksPerSource: search.chunksPerSource,
          // No maxCacheAgeMs: this search has just asked the store (fresh), so the worker goes straight to the fetch.
          // The result's chunks and raw content are cut here, from the whole page.
          wholePage: true,
          // The search has just asked the store: the page is wanted now, and goes to the store right after.
          storeAfterAnswer: true,
        },
        { timeoutMs: remaining },
      );
    } catch (error) {
      if (error instanceof JobTimeoutError) return { ok: false, failure: { error: `Timed out after ${remaining / 1000} seconds.`, errorCode: 'timeout' } };
      this.logger.warn(`fetch of ${candidate.url} for search failed: ${(error as Error).message}`);
      return { ok: false, failure: { error: 'Internal error while fetching this page.', errorCode: 'internal' } };
    }
    if (!result.ok) return { ok: false, failure: { error: result.error, errorCode: result.errorCode ?? 'internal' } };
    const { page } = result;
    if (page.text === undefined || page.markdown === undefined) {
      return { ok: false, failure: { error: 'The extractor answered without the page.', errorCode: 'internal' } };
    }
    return { ok: true, source: this.fromPage(candidate, { ...page, text: page.text, markdown: page.markdown }, 'page_metadata', page.favicon ?? conventionalFavicon(candidate.url)) };
  }
}

type FetchOutcome = { ok: true; source: SourceContent } | { ok: false; failure: NonNullable<SourceContent['fetchFailure']> };

/** An operator's imported document states the date its import file gave; a fetched one, the date its markup gave. */
function dateSourceOfStored(stored: StoredPage): PublishedDateSource {
  return stored.source === 'import' ? 'import' : 'page_metadata';
}

/** The page as far as the candidate itself tells it: the index's text, or only the upstream snippet. */
function candidatePage(candidate: SearchCandidate, markdown?: string): WebPage {
  return webPageOf({
    url: candidate.url,
    finalUrl: candidate.url,
    title: candidate.title,
    text: candidate.content,
    markdown: markdown ?? candidate.content,
    language: candidate.language,
    publishedDate: candidate.publishedDate,
    images: candidateImages(candidate),
    favicon: conventionalFavicon(candidate.url),
    contentHash: candidate.contentHash,
  });
}

function candidateImages(candidate: SearchCandidate): WebPage['images'] {
  return candidate.images.map((image) => ({ url: image.url, alt: image.alt ?? '' }));
}
