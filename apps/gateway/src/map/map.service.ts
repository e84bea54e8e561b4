import { Injectable } from '@nestjs/common';
import { MapRequestDto, MapResponseDto } from '@sift/api-contracts';
import { BillingMeterName, mapMeter, meteredCreditsBound, Reservation } from '@sift/billing';
import { MapJob } from '@sift/queue-contracts';
import { MeteringService } from '../billing/metering.service';
import { RequestContext, responseTimeSeconds } from '../caller/request-context';
import type { RequestOutcome } from '../request-log/request-outcome';
import { SiteTraversal } from '../crawl/site-traversal';
import { fitList } from '../http/token-budget';
import { traversalReportOf } from '../crawl/traversal-report';

@Injectable()
export class MapService {
  constructor(
    private readonly traversal: SiteTraversal,
    private readonly metering: MeteringService,
  ) {}

  async map(context: RequestContext, body: MapRequestDto): Promise<RequestOutcome<MapResponseDto>> {
    const url = await this.traversal.startingUrl(body);
    const meter = mapMeter(Boolean(body.instructions?.trim()));
    // The worst case of `limit` pages, at least one block; the grant caps the pages the worker may fetch.
    const bounds = { maximumCredits: meteredCreditsBound(meter, body.limit), minimumCredits: meteredCreditsBound(meter, 1), deadlineMs: body.timeout * 1000 };
    return this.metering.withReservation(context, 'map', bounds, (reservation) => this.mapWithin(context, body, url, meter, reservation));
  }

  private async mapWithin(context: RequestContext, body: MapRequestDto, url: string, meter: BillingMeterName, reservation: Reservation | null): Promise<RequestOutcome<MapResponseDto>> {
    const limit = this.metering.pageLimit(reservation, [meter], body.limit);
    const noAnswer = { baseUrl: url, urls: [], successfulPages: 0, failedPages: 0, partial: true };
    const outcome = await this.traversal.run(MapJob, context, url, { ...body, limit }, {
      includeImages: false,
      extractDepth: 'basic',
      format: 'text',
      includeFavicon: false,
      chunksPerSource: 3,
    }, noAnswer);
    const charged = await this.metering.settle(context, reservation, [{ kind: `map:${meter}`, meter, units: outcome.successfulPages }]);
    // Charged for the pages mapped: the budget narrows what is shown, not the work done.
    const fitted = body.max_tokens === undefined ? undefined : fitList(outcome.urls, body.max_tokens);
    const report = traversalReportOf(outcome, outcome === noAnswer, body.timeout);
    const leftOut = fitted ? outcome.urls.length - fitted.items.length : 0;
    const warnings = [...(report.warnings ?? []), ...(leftOut > 0 ? [`${leftOut} of the ${outcome.urls.length} URLs found were left out to fit max_tokens ${body.max_tokens}.`] : [])];
    const response: MapResponseDto = {
      base_url: outcome.baseUrl,
      results: fitted?.items ?? outcome.urls,
      response_time: responseTimeSeconds(context),
      request_id: context.requestId,
      ...(body.include_usage ? { usage: { credits: charged } } : {}),
      ...report,
      ...(warnings.length > 0 ? { warnings } : {}),
      ...(fitted ? { token_budget: fitted.budget } : {}),
    };
    const detail = { pages: outcome.successfulPages, failed: outcome.failedPages, partial: outcome.partial };
    return { response, usage: { depth: null, credits: charged, detail } };
  }
}
