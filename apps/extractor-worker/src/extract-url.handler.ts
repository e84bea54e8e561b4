import { defineJobHandler, type JobHandler, remainingBudgetMs } from '@sift/queue';
import { ExtractUrlJob, type ExtractUrlResult } from '@sift/queue-contracts';
import type { ExtractionOutcome, ExtractionService } from './extraction.service';

/** The answer leaves this long before the caller stops waiting. */
const REPLY_MARGIN_MS = 250;

/**
 * The job's result of an outcome: the page narrowed to its metadata and the content the caller asked for, or, when the
 * payload asked for the whole page (wholePage), the whole page and no content. A page's words cross the queue once.
 */
export function jobResultOf(outcome: ExtractionOutcome, wholePage: boolean | undefined): ExtractUrlResult {
  if (!outcome.ok) return outcome;
  const { fromCache, via } = outcome;
  if (wholePage) return { ok: true, page: outcome.page, fromCache, via };
  const { text: _text, markdown: _markdown, ...page } = outcome.page;
  return { ok: true, page, content: outcome.content, fromCache, via };
}

/** The only handler of the extract queue: maps the job to the extraction service. */
export function createExtractUrlHandler(extractionService: ExtractionService): JobHandler {
  // A job that waited in the queue gets only what is left of its caller's wait, not its whole budget again.
  return defineJobHandler(ExtractUrlJob, async (payload, context) =>
    jobResultOf(await extractionService.extract({ ...payload, timeoutMs: remainingBudgetMs(context, payload.timeoutMs, REPLY_MARGIN_MS) }), payload.wholePage),
  );
}
