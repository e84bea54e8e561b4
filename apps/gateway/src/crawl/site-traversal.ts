import { Inject, Injectable } from '@nestjs/common';
import { MapRequestDto } from '@sift/api-contracts';
import { JobFailedError, JobQueue, JobTimeoutError } from '@sift/queue';
import type { CrawlPayload, JobDefinition } from '@sift/queue-contracts';
import { assertPublicDestination, EgressPolicy, egressPolicyFromConfig, FetchError } from '@sift/safe-fetch';
import { RE2JS } from 're2js';
import { ApiError, ServiceUnavailableError } from '../http/api-error';
import type { RequestContext } from '../caller/request-context';
import { GATEWAY_CONFIG, GatewayAppConfig } from '../core/core.module';

/** The worker stops at the caller's timeout and returns what it has; the gateway waits a little longer for it. */
const TRAVERSAL_REPLY_MARGIN_MS = 5_000;

type TraversalExtraction = Pick<CrawlPayload, 'includeImages' | 'extractDepth' | 'format' | 'includeFavicon' | 'chunksPerSource'>;

/**
 * What crawl and map share: the starting URL checked against the workers' own egress policy (built once, from
 * the same setting), and the traversal job enqueued with the caller's limits and waited for.
 */
@Injectable()
export class SiteTraversal {
  private readonly policy: EgressPolicy;

  constructor(
    private readonly jobQueue: JobQueue,
    @Inject(GATEWAY_CONFIG) config: GatewayAppConfig,
  ) {
    this.policy = egressPolicyFromConfig(config);
  }

  /** The validated starting URL, with a scheme; see validateTraversal. */
  startingUrl(body: MapRequestDto): Promise<string> {
    return validateTraversal(body, this.policy);
  }

  /**
   * Enqueues the traversal and waits for the worker's answer: its own deadline plus a margin. The worker stops
   * at its deadline and answers with the pages it has; when no answer comes in time (the job waited behind
   * others, or its worker died), the caller gets `timedOut` (no pages, marked partial), never a 500. A job that
   * failed (it crashed its worker twice) answers 503.
   */
  async run<Result>(
    job: JobDefinition<CrawlPayload, Result>,
    context: RequestContext,
    url: string,
    body: MapRequestDto,
    extraction: TraversalExtraction,
    timedOut: Result,
  ): Promise<Result> {
    const payload = traversalPayload(context, url, body, extraction);
    try {
      return await this.jobQueue.enqueueAndWait(job, payload, { timeoutMs: payload.timeoutMs + TRAVERSAL_REPLY_MARGIN_MS });
    } catch (error) {
      if (error instanceof JobTimeoutError) return timedOut;
      if (error instanceof JobFailedError) throw new ServiceUnavailableError(`the ${job.name} could not be completed`);
      throw error;
    }
  }
}

/**
 * What crawl and map check before enqueueing: a starting URL (400 "no starting url provided"), a public http(s)
 * destination (403 "URL is not supported", decided without fetching it) and patterns that compile (400).
 */
export async function validateTraversal(body: MapRequestDto, policy: EgressPolicy): Promise<string> {
  const url = body.url?.trim();
  if (!url) throw new ApiError(400, 'no starting url provided');
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`;
  try {
    await assertPublicDestination(withScheme, policy);
  } catch (error) {
    if (error instanceof FetchError) throw new ApiError(403, 'URL is not supported');
    throw error;
  }
  for (const [field, patterns] of Object.entries({
    select_paths: body.select_paths,
    select_domains: body.select_domains,
    exclude_paths: body.exclude_paths,
    exclude_domains: body.exclude_domains,
  })) {
    for (const pattern of patterns ?? []) {
      try {
        // RE2 syntax, as the crawler matches with RE2 (linear time: a caller's regex cannot hang a worker).
        RE2JS.compile(pattern);
      } catch {
        throw new ApiError(400, `Invalid regular expression in ${field}: ${pattern}`);
      }
    }
  }
  return withScheme;
}

function traversalPayload(context: RequestContext, url: string, body: MapRequestDto, extraction: TraversalExtraction): CrawlPayload {
  const caller = context.caller;
  return {
    requestId: context.requestId,
    accountId: caller && !caller.keyless ? caller.accountId : 'keyless',
    url,
    instructions: body.instructions?.trim() || undefined,
    maxDepth: body.max_depth,
    maxBreadth: body.max_breadth,
    limit: body.limit,
    selectPaths: body.select_paths ?? undefined,
    selectDomains: body.select_domains ?? undefined,
    excludePaths: body.exclude_paths ?? undefined,
    excludeDomains: body.exclude_domains ?? undefined,
    allowExternal: body.allow_external,
    timeoutMs: Math.round(body.timeout * 1000),
    ...extraction,
  };
}
