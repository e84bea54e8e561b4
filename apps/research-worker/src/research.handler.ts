import { defineJobHandler, JobHandler } from '@sift/queue';
import { ResearchJob } from '@sift/queue-contracts';

export const RESEARCH_NOT_AVAILABLE = 'Research is not available in this version of Sift yet; the gateway does not accept research requests.';

/**
 * The research pipeline (plan → search → read → synthesise with citations) lands with its own issue. Until then
 * the worker registers the queue's job so its start-up check holds, and refuses any job honestly.
 */
export function createResearchHandlers(): JobHandler[] {
  return [
    defineJobHandler(ResearchJob, async () => {
      throw new Error(RESEARCH_NOT_AVAILABLE);
    }),
  ];
}
