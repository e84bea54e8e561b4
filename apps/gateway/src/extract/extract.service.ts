import { Inject, Injectable, Logger } from '@nestjs/common';
import { ExtractRequestDto, ExtractResponseDto, FailedResultDto } from '@sift/api-contracts';
import { BillingMeterName, extractMeter, meteredCreditsBound, Reservation } from '@sift/billing';
import { JobQueue, JobTimeoutError, QueueUnavailableError } from '@sift/queue';
import { askedContentOf, PageRepository, storedCopiesAnswering } from '@sift/pages';
import { ExtractUrlFailure, ExtractUrlJob, ExtractUrlResult, isRetryableFailure } from '@sift/queue-contracts';
import { MeteringService } from '../billing/metering.service';
import { pageViewerOf, RequestContext, responseTimeSeconds } from '../caller/request-context';
import { failuresRecordedWith, NO_USAGE, RequestOutcome } from '../request-log/request-outcome';
import { GATEWAY_CONFIG, GatewayAppConfig } from '../core/core.module';
import { extractResultOf, resultsWithinTokenBudget } from '../pages/page-responses';

const DEFAULT_TIMEOUT_SECONDS = { basic: 10, advanced: 30 } as const;
/** Time the gateway keeps for itself after the workers' deadline: queue hand-off and the reply. */
const GATEWAY_MARGIN_MS = 750;

@Injectable()
export class ExtractService {
  private readonly logger = new Logger('extract');

  constructor(
    private readonly jobQueue: JobQueue,
    private readonly metering: MeteringService,
    private readonly pages: PageRepository,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayAppConfig,
  ) {}

  extract(context: RequestContext, body: ExtractRequestDto): Promise<RequestOutcome<ExtractResponseDto>> {
    return failuresRecordedWith({ ...NO_USAGE, depth: body.extract_depth }, () => this.extractAll(context, body));
  }

  private async extractAll(context: RequestContext, body: ExtractRequestDto): Promise<RequestOutcome<ExtractResponseDto>> {
    const depth = body.extract_depth;
    const meter = extractMeter(depth);
    const deadlineMs = Math.round((body.timeout ?? DEFAULT_TIMEOUT_SECONDS[depth]) * 1000);
    const urls = [...new Set(body.urls.map((url) => url.trim()))];
    // Every URL succeeding, refused up front when the caller cannot pay that: successes are never free work.
    const worstCase = meteredCreditsBound(meter, urls.length);
    const bounds = { maximumCredits: worstCase, minimumCredits: worstCase, deadlineMs };
    return this.metering.withReservation(context, 'extract', bounds, (reservation) =>
      this.extractWithin(context, body, urls, deadlineMs, meter, reservation),
    );
  }

  private async extractWithin(
    context: RequestContext,
    body: ExtractRequestDto,
    urls: string[],
    deadlineMs: number,
    meter: BillingMeterName,
    reservation: Reservation | null,
  ): Promise<RequestOutcome<ExtractResponseDto>> {
    const { outcomes, elapsedMs } = await this.extractEach(context, body, urls, deadlineMs);
    const extracted = [];
    const failedResults = [];
    for (const outcome of outcomes) {
      if (outcome.ok) {
        extracted.push(extractResultOf(outcome.page, outcome.content ?? '', { includeImages: body.include_images, includeFavicon: body.include_favicon }));
      } else {
        failedResults.push(failedResultOf(outcome));
      }
    }
    const { results, tokenBudget } = resultsWithinTokenBudget(extracted, body.max_tokens);
    // Failures are never charged: only successes advance the 1-credit-per-5 meter.
    const charged = await this.metering.settle(context, reservation, [{ kind: `extract:${meter}`, meter, units: results.length }]);
    const response: ExtractResponseDto = {
      results,
      failed_results: failedResults,
      response_time: responseTimeSeconds(context),
      request_id: context.requestId,
      ...(body.include_usage ? { usage: { credits: charged } } : {}),
      ...(results.length === 0 && failedResults.length > 1 ? { warnings: [everyUrlFailedWarning(failedResults)] } : {}),
      ...(tokenBudget ? { token_budget: tokenBudget } : {}),
    };
    // Each URL's time and outcome: the answer goes at the slowest URL's time, and this shows which one that was.
    const detail = {
      urls: outcomes.map((outcome, index) => ({
        url: urls[index],
        ms: elapsedMs[index],
        ...(outcome.ok ? { outcome: 'ok', via: outcome.via } : { outcome: 'failed', error: outcome.error, error_code: outcome.errorCode ?? 'internal' }),
      })),
    };
    return { response, usage: { depth: body.extract_depth, credits: charged, detail } };
  }

  /**
   * Each URL's outcome and time in the order of `urls`: the stored copies that answer it from one lookup of the store
   * (storedResults), the rest from one job per URL, enqueued together in one Redis round trip. The answer waits for
   * the slowest URL only: every job starts at once (EXTRACT_CONCURRENCY is sized for that).
   */
  private async extractEach(
    context: RequestContext,
    body: ExtractRequestDto,
    urls: string[],
    deadlineMs: number,
  ): Promise<{ outcomes: ExtractUrlResult[]; elapsedMs: number[] }> {
    const startedAt = Date.now();
    const stored = await this.storedResults(context, body, urls);
    const storedMs = Date.now() - startedAt;
    const toFetch = urls.filter((url) => !stored.has(url));
    const fetchedMs = toFetch.map(() => deadlineMs);
    const accountId = context.caller && !context.caller.keyless ? context.caller.accountId : 'keyless';
    const payloads = toFetch.map((url) => ({
      requestId: context.requestId,
      accountId,
      url,
      extractDepth: body.extract_depth,
      format: body.format,
      timeoutMs: Math.max(1, deadlineMs - storedMs - GATEWAY_MARGIN_MS),
      includeImages: body.include_images,
      includeFavicon: body.include_favicon,
      query: body.query || undefined,
      chunksPerSource: body.chunks_per_source,
      // No maxCacheAgeMs: the store was asked above, so the worker goes straight to the fetch. Each page answers
      // when it is made and is stored right after: the answer goes at the slowest URL's time.
      storeAfterAnswer: true,
    }));
    let settled: PromiseSettledResult<ExtractUrlResult>[] = [];
    try {
      if (payloads.length > 0) {
        settled = await this.jobQueue.enqueueAllAndWait(ExtractUrlJob, payloads, {
          timeoutMs: Math.max(1, deadlineMs - storedMs),
          onSettled: (index) => {
            fetchedMs[index] = Date.now() - startedAt;
          },
        });
      }
    } catch (error) {
      // Redis is down: the whole request answers 503 (and releases its reservation) rather than "all URLs failed".
      if (error instanceof QueueUnavailableError) throw error;
      settled = toFetch.map(() => ({ status: 'rejected', reason: error }));
    }
    // Each URL's outcome and time: its stored copy's, or its job's (`settled` and `fetchedMs` are in `toFetch` order).
    const fetched = new Map(toFetch.map((url, index) => [url, { settled: settled[index], ms: fetchedMs[index] }]));
    const outcomes = urls.map((url) => stored.get(url) ?? this.outcomeOf(url, fetched.get(url)?.settled, deadlineMs));
    const elapsedMs = urls.map((url) => fetched.get(url)?.ms ?? storedMs);
    return { outcomes, elapsedMs };
  }

  /**
   * The URLs whose stored copy answers this request (storedCopiesAnswering: within DOCUMENT_CACHE_SECONDS, a copy the
   * caller may see), as their results. A store that fails or is slow answers none, and every URL is fetched.
   */
  private async storedResults(context: RequestContext, body: ExtractRequestDto, urls: string[]): Promise<Map<string, ExtractUrlResult>> {
    const results = new Map<string, ExtractUrlResult>();
    const wanted = {
      viewer: pageViewerOf(context),
      urls,
      maxAgeMs: this.config.DOCUMENT_CACHE_SECONDS * 1000,
      needs: { extractDepth: body.extract_depth, format: body.format, includeImages: body.include_images },
    };
    const copies = await storedCopiesAnswering(this.pages, wanted, (error) => {
      this.logger.warn(`document store lookup failed: ${error instanceof Error ? error.message : String(error)}`);
    });
    for (const [url, copy] of copies) {
      const content = askedContentOf(copy.page, { format: body.format, query: body.query || undefined, chunksPerSource: body.chunks_per_source });
      if (content !== null) results.set(url, { ok: true, page: { ...copy.page, url }, content, fromCache: true, via: 'store' });
    }
    return results;
  }

  /** A job's settled outcome as the URL's result: a timeout or an error the worker did not report is a failed URL. */
  private outcomeOf(url: string, outcome: PromiseSettledResult<ExtractUrlResult> | undefined, deadlineMs: number): ExtractUrlResult {
    if (outcome?.status === 'fulfilled') return outcome.value;
    const error: unknown = outcome?.reason;
    if (error instanceof JobTimeoutError) return { ok: false, url, error: `Timed out after ${deadlineMs / 1000} seconds.`, errorCode: 'timeout' };
    this.logger.error(`extract of ${url} failed: ${error instanceof Error ? error.message : String(error)}`);
    return { ok: false, url, error: 'Internal error while extracting this URL.', errorCode: 'internal' };
  }
}

/** A failed URL as the response shows it; a worker of an earlier version answers without a code. */
function failedResultOf(failure: ExtractUrlFailure): FailedResultDto {
  const errorCode = failure.errorCode ?? 'internal';
  return { url: failure.url, error: failure.error, error_code: errorCode, retryable: isRetryableFailure(errorCode) };
}

/** Every URL failed: what may be worth retrying, in one line an agent can act on. */
function everyUrlFailedWarning(failed: readonly FailedResultDto[]): string {
  const retryable = failed.filter((failure) => failure.retryable).length;
  const codes = [...new Set(failed.map((failure) => failure.error_code))].join(', ');
  return (
    `Every URL failed (${codes}); ${retryable === 0 ? 'none is worth retrying as is' : `${retryable} of ${failed.length} may succeed if retried (retryable: true)`}. ` +
    'See failed_results[].error_code.'
  );
}
