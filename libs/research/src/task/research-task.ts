import type { Reservation } from '@sift/billing';
import type { ResearchSource } from '@sift/queue-contracts';
import type { ResearchCheckpoint, ResearchOutcome, ResearchRequest } from '../pipeline/research-pipeline';

export type ResearchTaskStatus = 'pending' | 'in_progress' | 'completed' | 'failed';

/** Searches and extractions a report took: what its task is charged. */
export type ResearchWork = ResearchOutcome['work'];

/** A research task as its row holds it (research_tasks), from POST /research to its report or its failure. */
export interface ResearchTask {
  requestId: string;
  accountId: string;
  apiKeyId: string | null;
  projectId: string | null;
  request: ResearchRequest;
  /** mini or pro once the pipeline has chosen; null before (and for a task that failed before choosing). */
  resolvedModel: 'mini' | 'pro' | null;
  status: ResearchTaskStatus;
  content: ResearchOutcome['content'] | null;
  sources: ResearchSource[];
  /** Why a failed task failed; null otherwise. */
  error: string | null;
  /** Why a completed task's report is partial (it ran out of time: ResearchOutcome.partialReason); null when it is whole. */
  partialReason: string | null;
  mode: ResearchOutcome['mode'] | null;
  checkpoint: ResearchCheckpoint | null;
  work: ResearchWork | null;
  /** The credits held for the task at POST: settled when it completes, released when it fails; null when nothing was reserved. */
  reservation: Reservation | null;
  /** Credits charged; null until the completed task is settled. */
  credits: number | null;
  createdAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
  deadlineAt: Date;
}

/** What POST /research stores. */
export interface NewResearchTask {
  requestId: string;
  accountId: string;
  apiKeyId: string | null;
  projectId: string | null;
  request: ResearchRequest;
  reservation: Reservation | null;
  createdAt: Date;
  deadlineAt: Date;
}

/** A finished report, as the worker stores it. */
export type ResearchReport = Pick<ResearchOutcome, 'content' | 'sources' | 'mode' | 'resolvedModel' | 'work' | 'partialReason'>;

/** True once a task can no longer change: its report or its failure is final. */
export function isFinished(task: Pick<ResearchTask, 'status'>): boolean {
  return task.status === 'completed' || task.status === 'failed';
}
