import { randomUUID } from 'node:crypto';
import { type QueueUnderTest, startQueueUnderTest } from '@sift/queue';
import { QueueName } from '@sift/queue-contracts';
import { createExtractUrlHandler } from '../extract-url.handler';
import type { ExtractionService } from '../extraction.service';

/** An extract queue of its own (unique prefix) on the test Redis, consumed by a worker running `service`. */
export function startExtractQueue(service: ExtractionService, concurrency: number): Promise<QueueUnderTest> {
  return startQueueUnderTest({ prefix: `test-extractor-${randomUUID()}`, queue: QueueName.Extract, handlers: [createExtractUrlHandler(service)], concurrency });
}
