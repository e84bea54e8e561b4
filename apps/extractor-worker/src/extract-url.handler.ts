import { defineJobHandler, type JobHandler } from '@sift/queue';
import { ExtractUrlJob } from '@sift/queue-contracts';
import type { ExtractionService } from './extraction.service';

/** The only handler of the extract queue: maps the job to the extraction service. */
export function createExtractUrlHandler(extractionService: ExtractionService): JobHandler {
  return defineJobHandler(ExtractUrlJob, (payload) => extractionService.extract(payload));
}
