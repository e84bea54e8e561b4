import { Injectable } from '@nestjs/common';
import { CrawlRequestDto, CrawlResponseDto } from '@sift/api-contracts';
import { BillingMeterName, extractMeter, mapMeter, pagesCreditsBound, Reservation } from '@sift/billing';
import { CrawlJob } from '@sift/queue-contracts';
import { MeteringService } from '../billing/metering.service';
import { RequestContext, responseTimeSeconds } from '../caller/request-context';
import { failuresRecordedWith, NO_USAGE, RequestOutcome } from '../request-log/request-outcome';
import { crawlResultOf, resultsWithinTokenBudget } from '../pages/page-responses';
import { SiteTraversal } from './site-traversal';
import { traversalReportOf } from './traversal-report';

@Injectable()
export class CrawlService {
  constructor(
    private readonly traversal: SiteTraversal,
    private readonly metering: MeteringService,
  ) {}

  async crawl(context: RequestContext, body: CrawlRequestDto): Promise<RequestOutcome<CrawlResponseDto>> {
    const url = await this.traversal.startingUrl(body);
    return failuresRecordedWith({ ...NO_USAGE, depth: body.extract_depth }, () => this.crawlFrom(context, body, url));
  }

  private async crawlFrom(context: RequestContext, body: CrawlRequestDto, url: string): Promise<RequestOutcome<CrawlResponseDto>> {
    const withInstructions = Boolean(body.instructions?.trim());
    const mapping = mapMeter(withInstructions);
    const extraction = extractMeter(body.extract_depth);
    // Each page is charged on both meters: reserve the worst case of `limit` pages, at least one page, and cap
    // the pages the worker may crawl by the grant, so nothing is crawled (or stored) that cannot be paid.
    const meters = [mapping, extraction];
    const bounds = { maximumCredits: pagesCreditsBound(meters, body.limit), minimumCredits: pagesCreditsBound(meters, 1), deadlineMs: body.timeout * 1000 };
    return this.metering.withReservation(context, 'crawl', bounds, (reservation) =>
      this.crawlWithin(context, body, url, { mapping, extraction }, reservation),
    );
  }

  private async crawlWithin(
    context: RequestContext,
    body: CrawlRequestDto,
    url: string,
    { mapping, extraction }: { mapping: BillingMeterName; extraction: BillingMeterName },
    reservation: Reservation | null,
  ): Promise<RequestOutcome<CrawlResponseDto>> {
    const limit = this.metering.pageLimit(reservation, [mapping, extraction], body.limit);
    const noAnswer = { baseUrl: url, results: [], successfulPages: 0, failedPages: 0, partial: true };
    const outcome = await this.traversal.run(CrawlJob, context, url, { ...body, limit }, {
      includeImages: body.include_images,
      extractDepth: body.extract_depth,
      format: body.format,
      includeFavicon: body.include_favicon,
      chunksPerSource: body.chunks_per_source,
    }, noAnswer);
    // Crawl = mapping (per 10 pages) + extraction (per 5 pages) of the pages that succeeded, in one settlement
    // (both or neither); failures are free.
    const charged = await this.metering.settle(context, reservation, [
      { kind: `crawl:${mapping}`, meter: mapping, units: outcome.successfulPages },
      { kind: `crawl:${extraction}`, meter: extraction, units: outcome.successfulPages },
    ]);
    const { results, tokenBudget } = resultsWithinTokenBudget(
      outcome.results.map(({ page, content }) => crawlResultOf(page, content, { includeImages: body.include_images, includeFavicon: body.include_favicon })),
      body.max_tokens,
    );
    const response: CrawlResponseDto = {
      base_url: outcome.baseUrl,
      results,
      response_time: responseTimeSeconds(context),
      request_id: context.requestId,
      ...(body.include_usage ? { usage: { credits: charged } } : {}),
      ...traversalReportOf(outcome, outcome === noAnswer, body.timeout),
      ...(tokenBudget ? { token_budget: tokenBudget } : {}),
    };
    const detail = { pages: outcome.successfulPages, failed: outcome.failedPages, partial: outcome.partial };
    return { response, usage: { depth: body.extract_depth, credits: charged, detail } };
  }
}
