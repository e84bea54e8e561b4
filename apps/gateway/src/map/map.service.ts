import { Inject, Injectable } from '@nestjs/common';
import { MapRequestDto, MapResponseDto } from '@sift/api-contracts';
import { mapMeter } from '@sift/billing';
import { JobQueue } from '@sift/queue';
import { MapJob } from '@sift/queue-contracts';
import type { EgressPolicy } from '@sift/safe-fetch';
import { MeteringService } from '../common/metering.service';
import { RequestContext, responseTimeSeconds } from '../common/request-context';
import { GATEWAY_CONFIG, GatewayAppConfig } from '../core/core.module';
import { TRAVERSAL_REPLY_MARGIN_MS, traversalPayload, traversalPolicy, validateTraversal } from '../crawl/site-traversal';

@Injectable()
export class MapService {
  private readonly policy: EgressPolicy;

  constructor(
    private readonly jobQueue: JobQueue,
    private readonly metering: MeteringService,
    @Inject(GATEWAY_CONFIG) config: GatewayAppConfig,
  ) {
    this.policy = traversalPolicy(config);
  }

  async map(context: RequestContext, body: MapRequestDto): Promise<MapResponseDto> {
    const url = await validateTraversal(body, this.policy);
    const meter = mapMeter(Boolean(body.instructions?.trim()));
    await this.metering.precheck(context, this.metering.minimumMeteredCredits(meter));
    const payload = traversalPayload(context, url, body, {
      includeImages: false,
      extractDepth: 'basic',
      format: 'text',
      includeFavicon: false,
      chunksPerSource: 3,
    });
    const outcome = await this.jobQueue.enqueueAndWait(MapJob, payload, { timeoutMs: payload.timeoutMs + TRAVERSAL_REPLY_MARGIN_MS });
    context.logDetail = { pages: outcome.successfulPages, failed: outcome.failedPages, partial: outcome.partial };
    const charged = await this.metering.chargeMetered(context, 'map', meter, outcome.successfulPages);
    return {
      base_url: outcome.baseUrl,
      results: outcome.urls,
      response_time: responseTimeSeconds(context),
      request_id: context.requestId,
      ...(body.include_usage ? { usage: { credits: charged } } : {}),
    } as MapResponseDto;
  }
}
