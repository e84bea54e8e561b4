import type { CompletionOptions } from '@sift/llm';
import type { ResearchProgress } from './research-pipeline';

/**
 * The limits of one model call in a task: the call's own time limit cut to what is left before the task's deadline,
 * and the task's signal, so neither a model that never answers nor one that never stops streaming outlives the task.
 */
export function modelCallLimits(callMs: number, task: Pick<ResearchProgress, 'signal' | 'deadlineAt'>): Pick<CompletionOptions, 'deadlineMs' | 'signal'> {
  return { deadlineMs: Math.max(1, Math.min(callMs, task.deadlineAt.getTime() - Date.now())), signal: task.signal };
}
