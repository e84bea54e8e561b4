import type { ResearchDeadlineConfig } from '@sift/config';
import type { ResearchRequest } from '../pipeline/research-pipeline';

/** How long a task of this model may take (RESEARCH_DEADLINE_* in @sift/config); auto may become pro: it gets pro's time. */
export function researchDeadlineMs(model: ResearchRequest['model'], config: ResearchDeadlineConfig): number {
  return (model === 'mini' ? config.RESEARCH_DEADLINE_MINI_SECONDS : config.RESEARCH_DEADLINE_PRO_SECONDS) * 1000;
}
