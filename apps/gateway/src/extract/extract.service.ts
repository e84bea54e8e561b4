import { Inject, Injectable, Logger } from '@nestjs/common';
import { ExtractRequestDto, ExtractResponseDto } from '@sift/api-contracts';
import { extractMeter } from '@sift/billing';
import { JobQueue, JobTimeoutError } from '@sift/queue';
import { ExtractUrlJob, ExtractUrlResult } from '@sift/queue-contracts';
import { MeteringService } from '../common/metering.service';
import { RequestContext, responseTimeSeconds } from '../common/request-context';
import { GATEWAY_CONFIG, GatewayAppConfig } from '../core/core.module';
import { extractResultOf } from '../pages/page-responses';

const DEFAULT_TIMEOUT_SECONDS = { basic: 10, advanced: 30 } as const;
/** Time the gateway keeps for itself after the workers' deadline: queue hand-off and the reply. */
const GATEWAY_MARGIN_MS = 750;

@Injectable()
export class ExtractService {
  private readonly logger = new Logger('extract');

  constructor(
    private readonly jobQueue: JobQueue,
    private readonly metering: MeteringService,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayAppConfig,
  ) {}

  async extract(context: RequestContext, body: ExtractRequestDto): Promise<ExtractResponseDto> {
    const depth = body.extract_depth;
    context.depth = depth;
    const meter = extractMeter(depth);
    await this.metering.precheck(context, this.metering.minimumMeteredCredits(meter));
    const deadlineMs = Math.round((body.timeout ?? DEFAULT_TIMEOUT_SECONDS[depth]) * 1000);
    const urls = [...new Set(body.urls.map((url) => url.trim()))];
    const outcomes = await Promise.all(
      urls.map((url) => this.extractOne(context, body, url, deadlineMs)),
    );
    const results = [];
    const failedResults = [];
    for (const outcome of outcomes) {
      if (outcome.ok) {
        results.push(extractResultOf(outcome.page, outcome.content, { includeImages: body.include_images, includeFavicon: body.include_favicon }));
      } else {
        failedResults.push({ url: outcome.url, error: outcome.error });
      }
    }
    // Failures are never charged: only successes advance the 1-credit-per-5 meter.
    const charged = await this.metering.chargeMetered(context, 'extract', meter, results.length);
    return {
      results,
      failed_results: failedResults,
      response_time: responseTimeSeconds(context),
      request_id: context.requestId,
      ...(body.include_usage ? { usage: { credits: charged } } : {}),
    } as ExtractResponseDto;
  }

  private async extractOne(
    context: RequestContext,
    body: ExtractRequestDto,
    url: string,
    deadlineMs: number,
  ): Promise<ExtractUrlResult> {
    try {
      return await this.jobQueue.enqueueAndWait(
        ExtractUrlJob,
        {
          requestId: context.requestId,
          accountId: context.caller && !context.caller.keyless ? context.caller.accountId : 'keyless',
          url,
          extractDepth: body.extract_depth,
          format: body.format,
          timeoutMs: Math.max(1, deadlineMs - GATEWAY_MARGIN_MS),
          includeImages: body.include_images,
          includeFavicon: body.include_favicon,
          query: body.query || undefined,
          chunksPerSource: body.chunks_per_source,
          maxCacheAgeMs: this.config.DOCUMENT_CACHE_SECONDS * 1000,
        },
        { timeoutMs: deadlineMs },
      );
    } catch (error) {
      if (error instanceof JobTimeoutError) return { ok: false, url, error: `Timed out after ${deadlineMs / 1000} seconds.` };
      this.logger.error(`extract of ${url} failed: ${(error as Error).message}`);
      return { ok: false, url, error: 'Internal error while extracting this URL.' };
    }
  }
}
