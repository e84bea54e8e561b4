import { defineJobHandler, JobHandler } from '@sift/queue';
import { ResearchJob } from '@sift/queue-contracts';
import type { ResearchTaskRunner } from './research-task-runner';

/** The research queue's one job: run (or resume, or close) the task it names. */
export function createResearchHandlers(runner: ResearchTaskRunner): JobHandler[] {
  return [defineJobHandler(ResearchJob, (payload, context) => runner.run(payload, context))];
}
