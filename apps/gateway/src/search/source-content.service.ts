import { Inject, Injectable, Logger } from '@nestjs/common';
import { conventionalFavicon, type WebPage, webPageOf } from '@sift/content-extraction';
import { JobQueue, JobTimeoutError } from '@sift/queue';
import { ExtractUrlJob, ExtractUrlResult } from '@sift/queue-contracts';
import { SearchCandidate } from '@sift/search-index';
import { type PageNeeds, PageRepository, storedCopyAnswers } from '@sift/pages';
import { pageViewerOf, type RequestContext } from '../caller/request-context';
import { GATEWAY_CONFIG, GatewayAppConfig } from '../core/core.module';
import type { ResolvedSearch } from './search-parameters';
import type { SourceContent } from './source-content';

/** Time the gateway keeps after the worker's deadline: the queue hand-off and the reply. */
const QUEUE_MARGIN_MS = 500;
/** Below this a fetch cannot finish; the snippet is used instead of starting one. */
const MINIMUM_FETCH_MS = 500;

export interface ContentPlan {
  content: 'index' | 'cache' | 'fetch';
  /** Epoch milliseconds by which fetches must have answered. */
  fetchDeadline: number;
}

export interface ContentOutcome {
  sources: SourceContent[];
  fetched: number;
  fromCache: number;
  fetchFailures: number;
}

/**
 * The content of each candidate. Local-index candidates carry their stored text. Upstream candidates (SearXNG
 * snippets) get the stored copy when it is fresh and holds what the search needs (the request's one lookup of the
 * store), else (basic and advanced) the page is acquired by the extractor worker through the extract queue, which
 * answers with the whole page (and stores it unless the account keeps nothing): the gateway itself never fetches a page.
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
    const outcome: ContentOutcome = { sources: [], fetched: 0, fromCache: 0, fetchFailures: 0 };
    outcome.sources = await Promise.all(
      candidates.map(async (candidate) => {
        if (!candidate.contentIsSnippet) return this.fromIndex(candidate);
        if (plan.content === 'index') return this.fromSnippet(candidate);
        const cached = await this.fresh(context, search, candidate.url);
        if (cached) {
          outcome.fromCache += 1;
          return this.fromPage(candidate, cached);
        }
        if (plan.content === 'cache') return this.fromSnippet(candidate);
        const fetched = await this.fetch(context, search, candidate, plan.fetchDeadline);
        if (!fetched) {
          outcome.fetchFailures += 1;
          return this.fromSnippet(candidate);
        }
        outcome.fetched += 1;
        return fetched;
      }),
    );
    return outcome;
  }

  private fromIndex(candidate: SearchCandidate): SourceContent {
    return {
      candidate,
      page: candidatePage(candidate, candidate.markdown),
      snippetOnly: false,
      ...(candidate.chunks ? { chunks: candidate.chunks } : {}),
      // The local index already dropped unsafe documents when safe_search was on.
      filteredAtSource: true,
    };
  }

  private fromSnippet(candidate: SearchCandidate): SourceContent {
    return { candidate, page: candidatePage(candidate), snippetOnly: true, filteredAtSource: false };
  }

  /** A stored or fetched page, with the candidate's title, language, date and images where the page has none. */
  private fromPage(candidate: SearchCandidate, page: WebPage, favicon: string | undefined = conventionalFavicon(candidate.url)): SourceContent {
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
      snippetOnly: false,
      filteredAtSource: false,
    };
  }

  /** The stored copy of the page, when it holds what this search needs of it (storedCopyAnswers). */
  private async fresh(context: RequestContext, search: ResolvedSearch, url: string): Promise<WebPage | null> {
    const needs: PageNeeds = { extractDepth: 'basic', format: search.rawContentFormat ?? 'text', includeImages: search.includeImages };
    try {
      const stored = await this.pages.getFresh(pageViewerOf(context), url, this.config.DOCUMENT_CACHE_SECONDS * 1000);
      return stored && storedCopyAnswers(stored, needs) ? stored.page : null;
    } catch (error) {
      // The cache only saves time: a store error falls back to fetching or the snippet.
      this.logger.warn(`document store lookup of ${url} failed: ${(error as Error).message}`);
      return null;
    }
  }

  private async fetch(context: RequestContext, search: ResolvedSearch, candidate: SearchCandidate, deadline: number): Promise<SourceContent | null> {
    const remaining = deadline - Date.now();
    if (remaining < MINIMUM_FETCH_MS + QUEUE_MARGIN_MS) return null;
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
        },
        { timeoutMs: remaining },
      );
    } catch (error) {
      if (!(error instanceof JobTimeoutError)) this.logger.warn(`fetch of ${candidate.url} for search failed: ${(error as Error).message}`);
      return null;
    }
    if (!result.ok) return null;
    const { page } = result;
    if (page.text === undefined || page.markdown === undefined) return null;
    return this.fromPage(candidate, { ...page, text: page.text, markdown: page.markdown }, page.favicon ?? conventionalFavicon(candidate.url));
  }
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
