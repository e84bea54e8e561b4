import { defineJobHandler, JobHandler } from '@sift/queue';
import { CrawlJob, CrawlPayload, MapJob } from '@sift/queue-contracts';
import { CrawlDependencies, CrawlRequest, runCrawl } from './crawl';

function crawlRequestOf(payload: CrawlPayload, mode: CrawlRequest['mode']): CrawlRequest {
  const { requestId: _requestId, accountId: _accountId, ...request } = payload;
  return { ...request, mode };
}

/**
 * One job runs one whole crawl or map: the frontier lives inside the job, so "done" is frontier empty, limit
 * reached or deadline passed — never a distributed counter that can miss its zero.
 */
export function createCrawlHandlers(dependenciesFor: (payload: CrawlPayload) => CrawlDependencies): JobHandler[] {
  return [
    defineJobHandler(CrawlJob, async (payload) => {
      const outcome = await runCrawl(crawlRequestOf(payload, 'crawl'), dependenciesFor(payload));
      return {
        baseUrl: outcome.baseUrl,
        results: outcome.pages,
        successfulPages: outcome.successfulPages,
        failedPages: outcome.failedPages,
        partial: outcome.partial,
      };
    }),
    defineJobHandler(MapJob, async (payload) => {
      const outcome = await runCrawl(crawlRequestOf(payload, 'map'), dependenciesFor(payload));
      return {
        baseUrl: outcome.baseUrl,
        urls: outcome.urls,
        successfulPages: outcome.successfulPages,
        failedPages: outcome.failedPages,
        partial: outcome.partial,
      };
    }),
  ];
}
