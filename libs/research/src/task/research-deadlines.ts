import { z } from 'zod';
import type { ResearchRequest } from '../pipeline/research-pipeline';

/**
 * How long a research task may take, counted from its creation; past it the task is failed with the reason,
 * by whichever notices first (the worker's own abort, its periodic sweep, a GET). Read by the gateway, which
 * stores each task's deadline in its row at POST.
 */
export const researchDeadlineEnv = z.object({
  /** Longest a mini research task may take, in seconds, from its POST. */
  RESEARCH_DEADLINE_MINI_SECONDS: z.coerce.number().int().min(1).default(300),
  /** Longest a pro or auto research task may take, in seconds, from its POST. */
  RESEARCH_DEADLINE_PRO_SECONDS: z.coerce.number().int().min(1).default(900),
});
export type ResearchDeadlineConfig = z.infer<typeof researchDeadlineEnv>;

/** auto may become pro: it gets pro's time. */
export function researchDeadlineMs(model: ResearchRequest['model'], config: ResearchDeadlineConfig): number {
  return (model === 'mini' ? config.RESEARCH_DEADLINE_MINI_SECONDS : config.RESEARCH_DEADLINE_PRO_SECONDS) * 1000;
}
