import type { FailedResultDto } from '@sift/api-contracts';
import { isRetryableFailure, type CrawlFailure } from '@sift/queue-contracts';

/** What a crawl or map answer says besides its pages: the pages that failed, and what narrowed the traversal. */
export interface TraversalReport {
  failed_results?: FailedResultDto[];
  warnings?: string[];
}

/**
 * The failed pages with their codes, and warnings for what the caller would not otherwise see: links robots.txt kept
 * the traversal from following, and a traversal that gave no answer within its timeout.
 */
export function traversalReportOf(outcome: { failures?: CrawlFailure[]; robotsRefused?: number }, timedOut: boolean, timeoutSeconds: number): TraversalReport {
  const failed = (outcome.failures ?? []).map(
    (failure): FailedResultDto => ({ url: failure.url, error: failure.error, error_code: failure.errorCode, retryable: isRetryableFailure(failure.errorCode) }),
  );
  const warnings: string[] = [];
  if (timedOut) {
    warnings.push(`No answer came from the crawler within the ${timeoutSeconds} s timeout: no pages. The crawler may be busy; retry, or raise timeout.`);
  }
  const refused = outcome.robotsRefused ?? 0;
  if (refused > 0) {
    warnings.push(`${refused === 1 ? '1 link was' : `${refused} links were`} not followed: the site's robots.txt disallows ${refused === 1 ? 'it' : 'them'}.`);
  }
  return { ...(failed.length > 0 ? { failed_results: failed } : {}), ...(warnings.length > 0 ? { warnings } : {}) };
}
