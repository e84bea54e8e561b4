import { Injectable } from '@nestjs/common';
import { CrawlRequestDto, CrawlResponseDto } from '@sift/api-contracts';
import { extractMeter, mapMeter } from '@sift/billing';
import { CrawlJob } from '@sift/queue-contracts';
import { MeteringService } from '../common/metering.service';
import { RequestContext, responseTimeSeconds } from '../common/request-context';
import { crawlResultOf } from '../pages/page-responses';
import { SiteTraversal } from './site-traversal';

@Injectable()
export class CrawlService {
  constructor(
    private readonly traversal: SiteTraversal,
    private readonly metering: MeteringService,
  ) {}

  async crawl(context: RequestContext, body: CrawlRequestDto): Promise<CrawlResponseDto> {
    const url = await this.traversal.startingUrl(body);
    context.depth = body.extract_depth;
    const withInstructions = Boolean(body.instructions?.trim());
    const mapping = mapMeter(withInstructions);
    const extraction = extractMeter(body.extract_depth);
    await this.metering.precheck(context, this.metering.minimumMeteredCredits(mapping));
    const outcome = await this.traversal.run(CrawlJob, context, url, body, {
      includeImages: body.include_images,
      extractDepth: body.extract_depth,
      format: body.format,
      includeFavicon: body.include_favicon,
      chunksPerSource: body.chunks_per_source,
    });
    context.logDetail = { pages: outcome.successfulPages, failed: outcome.failedPages, partial: outcome.partial };
    // Crawl = mapping (per 10 pages) + extraction (per 5 pages) of the pages that succeeded; failures are free.
    const charged =
      (await this.metering.chargeMetered(context, 'crawl', mapping, outcome.successfulPages)) +
      (await this.metering.chargeMetered(context, 'crawl', extraction, outcome.successfulPages));
    return {
      base_url: outcome.baseUrl,
      results: outcome.results.map(({ page, content }) =>
        crawlResultOf(page, content, { includeImages: body.include_images, includeFavicon: body.include_favicon }),
      ),
      response_time: responseTimeSeconds(context),
      request_id: context.requestId,
      ...(body.include_usage ? { usage: { credits: charged } } : {}),
    } as CrawlResponseDto;
  }
}
