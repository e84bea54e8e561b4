import { defineJobHandler, JobContext, JobHandler, remainingBudgetMs } from '@sift/queue';
import { CrawlJob, CrawlPayload, MapJob } from '@sift/queue-contracts';
import { CrawlDependencies, CrawlRequest, runCrawl } from './crawl';

/** The crawl answers this long before its caller stops waiting, so the pages it has reach the caller. */
const REPLY_MARGIN_MS = 2_000;

function crawlRequestOf(payload: CrawlPayload, mode: CrawlRequest['mode'], context: JobContext): CrawlRequest {
  const { requestId: _requestId, accountId: _accountId, ...request } = payload;
  return { ...request, timeoutMs: remainingBudgetMs(context, payload.timeoutMs, REPLY_MARGIN_MS), mode };
}

/**
 * One job runs one whole crawl or map: the frontier lives inside the job, so "done" is frontier empty, limit
 * reached or deadline passed — never a distributed counter that can miss its zero.
 */
export function createCrawlHandlers(dependenciesFor: (payload: CrawlPayload) => CrawlDependencies): JobHandler[] {
  return [
    defineJobHandler(CrawlJob, async (payload, context) => {
      const outcome = await runCrawl(crawlRequestOf(payload, 'crawl', context), dependenciesFor(payload));
      return {
        baseUrl: outcome.baseUrl,
        results: outcome.pages,
        successfulPages: outcome.successfulPages,
        failedPages: outcome.failedPages,
        partial: outcome.partial,
        failures: outcome.failures,
        robotsRefused: outcome.robotsRefused,
      };
    }),
    defineJobHandler(MapJob, async (payload, context) => {
      const outcome = await runCrawl(crawlRequestOf(payload, 'map', context), dependenciesFor(payload));
      return {
        baseUrl: outcome.baseUrl,
        urls: outcome.urls,
        successfulPages: outcome.successfulPages,
        failedPages: outcome.failedPages,
        partial: outcome.partial,
        failures: outcome.failures,
        robotsRefused: outcome.robotsRefused,
      };
    }),
  ];
}
