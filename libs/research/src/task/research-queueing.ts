import { type JobQueue, withRequestId } from '@sift/queue';
import { ResearchJob } from '@sift/queue-contracts';
import type { ResearchTask } from './research-task';

/**
 * Queues a task's job: POST /research once, the research worker's sweep again for a task whose job Redis lost. The
 * job id is the task's, so a task whose job still exists (waiting, running, or kept after it ended) gets no second
 * one; past the task's deadline no worker starts it. Enqueued in the task's request scope, as its POST was, so the
 * worker's log lines carry the task's request id.
 */
export async function queueResearchTask(jobQueue: JobQueue, task: Pick<ResearchTask, 'requestId' | 'accountId' | 'deadlineAt'>): Promise<void> {
  await withRequestId(task.requestId, () =>
    jobQueue.enqueue(ResearchJob, { requestId: task.requestId, accountId: task.accountId }, { jobId: task.requestId, deadlineAt: task.deadlineAt.getTime() }),
  );
}
