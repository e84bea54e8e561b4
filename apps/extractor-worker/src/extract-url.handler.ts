import { defineJobHandler, type JobHandler, remainingBudgetMs } from '@sift/queue';
import { ExtractUrlJob, type ExtractUrlResult } from '@sift/queue-contracts';
import type { ExtractionOutcome, ExtractionService } from './extraction.service';

/** The answer leaves this long before the caller stops waiting. */
const REPLY_MARGIN_MS = 250;

/**
 * The job's result of an outcome: the page's metadata and the content the caller asked for, and the page's whole text
 * and markdown only when the payload asked for them (wholePage). A page's words cross the queue once: a 10-URL extract
 * serialised, stored in Redis and parsed three copies of each page.
 */
export function jobResultOf(outcome: ExtractionOutcome, wholePage: boolean | undefined): ExtractUrlResult {
  if (!outcome.ok) return outcome;
  const { text, markdown, ...page } = outcome.page;
  return { ok: true, page, content: outcome.content, fromCache: outcome.fromCache, ...(wholePage ? { body: { text, markdown } } : {}) };
}

/** The only handler of the extract queue: maps the job to the extraction service. */
export function createExtractUrlHandler(extractionService: ExtractionService): JobHandler {
  // A job that waited in the queue gets only what is left of its caller's wait, not its whole budget again.
  return defineJobHandler(ExtractUrlJob, async (payload, context) =>
    jobResultOf(await extractionService.extract({ ...payload, timeoutMs: remainingBudgetMs(context, payload.timeoutMs, REPLY_MARGIN_MS) }), payload.wholePage),
  );
}
