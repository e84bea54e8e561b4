import { defineJobHandler, JobContext, JobHandler, remainingBudgetMs } from '@sift/queue';
import { CrawlJob, type CrawlPage, CrawlPayload, MapJob } from '@sift/queue-contracts';
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
      const request = crawlRequestOf(payload, 'crawl', context);
      // Each page goes to the gateway as it is made (without instructions it is in the answer as made): the answer
      // then waits for no serialisation of the whole crawl, megabytes for a large site, after its last page.
      const parts = request.instructions?.trim() ? undefined : context.resultParts?.<CrawlPage>();
      const partOfVisit = new Map<number, number>();
      const outcome = await runCrawl(parts ? { ...request, onPage: (page, visitOrder) => partOfVisit.set(visitOrder, parts.add(page)) } : request, dependenciesFor(payload));
      const handedOver = parts !== undefined && partOfVisit.size === outcome.pages.length;
      if (handedOver) await parts.finish('results', [...partOfVisit].sort(([left], [right]) => left - right).map(([, part]) => part));
      return {
        baseUrl: outcome.baseUrl,
        results: handedOver ? [] : outcome.pages,
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
