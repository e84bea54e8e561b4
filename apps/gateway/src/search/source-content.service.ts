import { Inject, Injectable, Logger } from '@nestjs/common';
import { PrismaClient } from '@sift/persistence';
import { JobQueue, JobTimeoutError } from '@sift/queue';
import { ExtractUrlJob, ExtractUrlResult } from '@sift/queue-contracts';
import { DocumentStore, SearchCandidate, StoredDocument } from '@sift/search-index';
import type { RequestContext } from '../common/request-context';
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
 * snippets) get the stored copy when it is fresh, else (basic and advanced) the page is fetched by the
 * extractor worker through the extract queue, which stores it: the gateway itself never fetches a page.
 */
@Injectable()
export class SourceContentService {
  private readonly logger = new Logger('search');
  private readonly store: DocumentStore;

  constructor(
    prisma: PrismaClient,
    private readonly jobQueue: JobQueue,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayAppConfig,
  ) {
    this.store = new DocumentStore(prisma);
  }

  async load(context: RequestContext, search: ResolvedSearch, candidates: SearchCandidate[], plan: ContentPlan): Promise<ContentOutcome> {
    const outcome: ContentOutcome = { sources: [], fetched: 0, fromCache: 0, fetchFailures: 0 };
    outcome.sources = await Promise.all(
      candidates.map(async (candidate) => {
        if (!candidate.contentIsSnippet) return this.fromIndex(candidate);
        if (plan.content === 'index') return this.fromSnippet(candidate);
        const cached = await this.fresh(candidate.url);
        if (cached) {
          outcome.fromCache += 1;
          return this.fromStored(candidate, cached);
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
      title: candidate.title,
      text: candidate.content,
      markdown: candidate.markdown ?? candidate.content,
      snippetOnly: false,
      ...(candidate.chunks ? { chunks: candidate.chunks } : {}),
      filteredAtSource: true,
      language: candidate.language,
      publishedDate: candidate.publishedDate,
      images: candidate.images,
      favicon: conventionalFavicon(candidate.url),
      // The local index already dropped unsafe documents when safe_search was on.
      unsafe: false,
    };
  }

  private fromSnippet(candidate: SearchCandidate): SourceContent {
    return {
      candidate,
      title: candidate.title,
      text: candidate.content,
      markdown: candidate.content,
      snippetOnly: true,
      filteredAtSource: false,
      language: candidate.language,
      publishedDate: candidate.publishedDate,
      images: candidate.images,
      favicon: conventionalFavicon(candidate.url),
      unsafe: false,
    };
  }

  private fromStored(candidate: SearchCandidate, stored: StoredDocument, favicon?: string): SourceContent {
    return {
      candidate,
      title: stored.title || candidate.title,
      text: stored.text,
      markdown: stored.markdown || stored.text,
      snippetOnly: false,
      filteredAtSource: false,
      language: stored.language ?? candidate.language,
      publishedDate: stored.publishedDate?.toISOString() ?? candidate.publishedDate,
      images: stored.images.length > 0 ? stored.images : candidate.images,
      favicon: favicon ?? conventionalFavicon(candidate.url),
      unsafe: stored.isUnsafe,
    };
  }

  private async fresh(url: string): Promise<StoredDocument | null> {
    try {
      return await this.store.getFresh(url, this.config.DOCUMENT_CACHE_SECONDS * 1000);
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
    const storeDocument = !(caller && !caller.keyless && caller.zeroDataRetention);
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
          storeDocument,
          maxCacheAgeMs: this.config.DOCUMENT_CACHE_SECONDS * 1000,
        },
        { timeoutMs: remaining },
      );
    } catch (error) {
      if (!(error instanceof JobTimeoutError)) this.logger.warn(`fetch of ${candidate.url} for search failed: ${(error as Error).message}`);
      return null;
    }
    if (!result.ok) return null;
    // The worker stored the page with its text, language, date and image alt texts: read that richer copy.
    const stored = storeDocument ? await this.fresh(candidate.url) : null;
    if (stored) return this.fromStored(candidate, stored, result.favicon);
    return {
      candidate,
      title: result.title || candidate.title,
      text: result.rawContent,
      markdown: result.rawContent,
      snippetOnly: false,
      filteredAtSource: false,
      language: candidate.language,
      publishedDate: candidate.publishedDate,
      images: (result.images ?? []).map((url) => ({ url })),
      favicon: result.favicon ?? conventionalFavicon(candidate.url),
      unsafe: false,
    };
  }
}

/**
 * The favicon at the site's conventional location: the document store does not keep the declared one, and
 * /favicon.ico is where browsers look when a page declares none.
 */
function conventionalFavicon(url: string): string | undefined {
  try {
    return new URL('/favicon.ico', url).toString();
  } catch {
    return undefined;
  }
}
