import { type JobDefinition, type QueueName, jobDefinitionsOfQueue } from '@sift/queue-contracts';
import type { JobHandler } from './job-handler';

/**
 * Maps job names to handlers and refuses a worker whose handlers do not cover its queue exactly: a job with no
 * handler would wait forever and a job with two has an ambiguous owner. Both are found at start-up.
 */
export function buildHandlerRegistry(
  queue: QueueName,
  handlers: readonly JobHandler[],
  definitions: readonly JobDefinition<unknown, unknown>[] = jobDefinitionsOfQueue(queue),
): Map<string, JobHandler> {
  const problems: string[] = [];
  for (const handler of handlers) {
    if (handler.definition.queue !== queue) {
      problems.push(`handler for job "${handler.definition.name}" belongs to queue "${handler.definition.queue}", not "${queue}"`);
    }
  }
  const registry = new Map<string, JobHandler>();
  for (const definition of definitions) {
    const matching = handlers.filter((handler) => handler.definition.name === definition.name && handler.definition.queue === queue);
    if (matching.length === 0) {
      problems.push(`job "${definition.name}" has no handler`);
    } else if (matching.length > 1) {
      problems.push(`job "${definition.name}" has ${matching.length} handlers`);
    } else {
      registry.set(definition.name, matching[0]);
    }
  }
  for (const handler of handlers) {
    if (handler.definition.queue === queue && !definitions.some((definition) => definition.name === handler.definition.name)) {
      problems.push(`handler for unknown job "${handler.definition.name}" on queue "${queue}"`);
    }
  }
  if (problems.length > 0) {
    throw new Error(`Worker for queue "${queue}" refuses to start: ${problems.join('; ')}`);
  }
  return registry;
}
