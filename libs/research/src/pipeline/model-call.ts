import type { CompletionOptions } from '@sift/llm';
import type { ResearchProgress } from './research-pipeline';

/**
 * The limits of one model call in a task: the call's own time limit, and the task's signal, so neither a model that
 * never answers nor one that never stops streaming outlives the task. The task's end is the signal's alone: a second
 * timer set for the same moment can fire first (a timer counts from the event loop's clock, which lags the wall clock
 * on a busy process), and a call cut by it would fail the task instead of wrapping it up.
 */
export function modelCallLimits(callMs: number, task: Pick<ResearchProgress, 'signal'>): Pick<CompletionOptions, 'deadlineMs' | 'signal'> {
  return { deadlineMs: callMs, signal: task.signal };
}
