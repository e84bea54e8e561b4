import { CrawlJob } from './crawl.job';
import { ExtractUrlJob } from './extract-url.job';
import type { JobDefinition } from './job-definition';
import { MapJob } from './map.job';
import type { QueueName } from './queue-name';
import { ResearchJob } from './research.job';

/**
 * Every job the system knows. A worker checks its handlers against the jobs of its queue listed here, so adding
 * a job without a handler fails at start-up instead of leaving jobs waiting forever.
 */
export const ALL_JOB_DEFINITIONS: readonly JobDefinition<unknown, unknown>[] = [ExtractUrlJob, CrawlJob, MapJob, ResearchJob];

export function jobDefinitionsOfQueue(queue: QueueName): JobDefinition<unknown, unknown>[] {
  return ALL_JOB_DEFINITIONS.filter((definition) => definition.queue === queue);
}
