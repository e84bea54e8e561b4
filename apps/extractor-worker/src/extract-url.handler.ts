import { defineJobHandler, type JobHandler, remainingBudgetMs } from '@sift/queue';
import { ExtractUrlJob } from '@sift/queue-contracts';
import type { ExtractionService } from './extraction.service';

/** The answer leaves this long before the caller stops waiting. */
const REPLY_MARGIN_MS = 250;

/** The only handler of the extract queue: maps the job to the extraction service. */
export function createExtractUrlHandler(extractionService: ExtractionService): JobHandler {
  // A job that waited in the queue gets only what is left of its caller's wait, not its whole budget again.
  return defineJobHandler(ExtractUrlJob, (payload, context) =>
    extractionService.extract({ ...payload, timeoutMs: remainingBudgetMs(context, payload.timeoutMs, REPLY_MARGIN_MS) }),
  );
}
