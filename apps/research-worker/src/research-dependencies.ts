import { conventionalFavicon } from '@sift/content-extraction';
import { type LlmClient } from '@sift/llm';
import type { RerankService } from '@sift/models';
import { JobQueue, QueueUnavailableError } from '@sift/queue';
import { ExtractUrlJob } from '@sift/queue-contracts';
import type { ResearchDependencies, ResearchHit, ResearchPage } from '@sift/research';
import type { SearchCandidate, SearchFanOut } from '@sift/search-index';

/** The extractor worker's own limit on one URL's budget. */
const MAXIMUM_EXTRACT_TIMEOUT_MS = 150_000;
/** Time kept after the extractor's deadline for the queue's hand-off of its answer. */
const QUEUE_MARGIN_MS = 1_000;

export interface ResearchWorld {
  fanOut: SearchFanOut;
  jobQueue: JobQueue;
  llm?: LlmClient;
  /** The operator's reranker (RERANK_*): chooses the sentences and passages a report is written from when enabled. */
  reranker?: RerankService;
  /** DOCUMENT_CACHE_SECONDS in ms: a stored copy younger than this is read instead of fetching again. */
  maxCacheAgeMs: number;
}

function hitOf(candidate: SearchCandidate): ResearchHit {
  return {
    url: candidate.url,
    title: candidate.title,
    content: candidate.content,
    contentIsSnippet: candidate.contentIsSnippet,
    score: candidate.score,
    favicon: conventionalFavicon(candidate.url) ?? null,
  };
}

/**
 * The pipeline's outside world for one task: search through the same providers as POST /search, with the task's
 * account as viewer (its own pages and the shared ones); read through the extractor worker, so the egress policy,
 * the extraction cache and page storage (zero data retention included) apply as for POST /extract.
 */
export function researchDependenciesFor(world: ResearchWorld, task: { requestId: string; accountId: string }): ResearchDependencies {
  return {
    search: async (query, options) => {
      const { candidates } = await world.fanOut.search({
        query,
        viewer: { accountId: task.accountId },
        maxResults: options.maxResults,
        depth: 'basic',
        includeDomains: options.includeDomains,
        excludeDomains: options.excludeDomains,
        // A preference, not a filter: the pipeline ranks the listed domains first.
        includeDomainsMode: 'boost',
        includeMarkdown: false,
        deadlineMs: options.deadlineMs,
      });
      return candidates.map(hitOf);
    },
    read: async (urls, options) => {
      const pages = await Promise.all(urls.map((url) => readPage(world, task, url, options.deadlineMs)));
      return pages.filter((page): page is ResearchPage => page !== null);
    },
    ...(world.llm ? { llm: world.llm } : {}),
    ...(world.reranker?.enabled ? { rerank: rerankWith(world.reranker) } : {}),
  };
}

/** The reranker as the pipeline asks it: the passages' order, or null when it gave none (failed, too slow). */
function rerankWith(reranker: RerankService): NonNullable<ResearchDependencies['rerank']> {
  return async (query, passages, options) => {
    const reranked = await reranker.rerank(query, passages, options.deadlineMs);
    return reranked.reranked ? reranked.order : null;
  };
}

/** One page in full, or null when it cannot be read (a failed fetch is the pipeline's to skip, never a task failure). */
async function readPage(world: ResearchWorld, task: { requestId: string; accountId: string }, url: string, deadlineMs: number): Promise<ResearchPage | null> {
  const timeoutMs = Math.max(1, Math.min(MAXIMUM_EXTRACT_TIMEOUT_MS, deadlineMs - QUEUE_MARGIN_MS));
  try {
    const result = await world.jobQueue.enqueueAndWait(
      ExtractUrlJob,
      {
        requestId: task.requestId,
        accountId: task.accountId,
        url,
        extractDepth: 'basic',
        format: 'markdown',
        timeoutMs,
        includeImages: false,
        includeFavicon: true,
        chunksPerSource: 1,
        maxCacheAgeMs: world.maxCacheAgeMs,
      },
      { timeoutMs: timeoutMs + QUEUE_MARGIN_MS },
    );
    if (!result.ok) return null;
    return { url, title: result.page.title, content: result.content ?? '', favicon: result.page.favicon ?? conventionalFavicon(url) ?? null };
  } catch (error) {
    // Redis itself is gone: no page can be read, and the task should say so rather than write from nothing.
    if (error instanceof QueueUnavailableError) throw error;
    return null;
  }
}
