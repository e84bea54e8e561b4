import { Inject, Injectable } from '@nestjs/common';
import { CrawlRequestDto, CrawlResponseDto } from '@sift/api-contracts';
import { extractMeter, mapMeter } from '@sift/billing';
import { JobQueue } from '@sift/queue';
import { CrawlJob } from '@sift/queue-contracts';
import type { EgressPolicy } from '@sift/safe-fetch';
import { MeteringService } from '../common/metering.service';
import { RequestContext, responseTimeSeconds } from '../common/request-context';
import { GATEWAY_CONFIG, GatewayAppConfig } from '../core/core.module';
import { TRAVERSAL_REPLY_MARGIN_MS, traversalPayload, traversalPolicy, validateTraversal } from './site-traversal';

@Injectable()
export class CrawlService {
  private readonly policy: EgressPolicy;

  constructor(
    private readonly jobQueue: JobQueue,
    private readonly metering: MeteringService,
    @Inject(GATEWAY_CONFIG) config: GatewayAppConfig,
  ) {
    this.policy = traversalPolicy(config);
  }

  async crawl(context: RequestContext, body: CrawlRequestDto): Promise<CrawlResponseDto> {
    const url = await validateTraversal(body, this.policy);
    context.depth = body.extract_depth;
    const withInstructions = Boolean(body.instructions?.trim());
    const mapping = mapMeter(withInstructions);
    const extraction = extractMeter(body.extract_depth);
    await this.metering.precheck(context, this.metering.minimumMeteredCredits(mapping));
    const payload = traversalPayload(context, url, body, {
      includeImages: body.include_images,
      extractDepth: body.extract_depth,
      format: body.format,
      includeFavicon: body.include_favicon,
      chunksPerSource: body.chunks_per_source,
    });
    const outcome = await this.jobQueue.enqueueAndWait(CrawlJob, payload, { timeoutMs: payload.timeoutMs + TRAVERSAL_REPLY_MARGIN_MS });
    context.logDetail = { pages: outcome.successfulPages, failed: outcome.failedPages, partial: outcome.partial };
    // Crawl = mapping (per 10 pages) + extraction (per 5 pages) of the pages that succeeded; failures are free.
    const charged =
      (await this.metering.chargeMetered(context, 'crawl', mapping, outcome.successfulPages)) +
      (await this.metering.chargeMetered(context, 'crawl', extraction, outcome.successfulPages));
    return {
      base_url: outcome.baseUrl,
      results: outcome.results.map((page) => ({
        url: page.url,
        raw_content: page.rawContent,
        ...(body.include_images ? { images: page.images ?? [] } : {}),
        ...(body.include_favicon && page.favicon ? { favicon: page.favicon } : {}),
      })),
      response_time: responseTimeSeconds(context),
      request_id: context.requestId,
      ...(body.include_usage ? { usage: { credits: charged } } : {}),
    } as CrawlResponseDto;
  }
}
