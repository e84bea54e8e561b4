import type { Reservation } from '@sift/billing';
import type { PrismaClient } from '@sift/persistence';
import type { ResearchSource } from '@sift/queue-contracts';
import type { ResearchCheckpoint, ResearchRequest } from '../pipeline/research-pipeline';
import type { NewResearchTask, ResearchReport, ResearchTask, ResearchWork } from './research-task';

type ResearchTaskRow = Awaited<ReturnType<PrismaClient['researchTask']['findUniqueOrThrow']>>;

/** How the options of a request are stored: the API's own field names. */
interface StoredOptions {
  citation_format: ResearchRequest['citationFormat'];
  output_length: ResearchRequest['outputLength'];
  include_domains: string[];
  exclude_domains: string[];
  output_schema?: Record<string, unknown>;
  max_tokens?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UNFINISHED = ['pending', 'in_progress'] as const;

export const OVERDUE_REASON = 'The research task did not finish before its deadline.';

function optionsOf(request: ResearchRequest): StoredOptions {
  return {
    citation_format: request.citationFormat,
    output_length: request.outputLength,
    include_domains: request.includeDomains,
    exclude_domains: request.excludeDomains,
    ...(request.outputSchema ? { output_schema: request.outputSchema } : {}),
    ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
  };
}

function taskOf(row: ResearchTaskRow): ResearchTask {
  const options = row.options as unknown as StoredOptions;
  return {
    requestId: row.requestId,
    accountId: row.accountId,
    apiKeyId: row.apiKeyId,
    projectId: row.projectId,
    request: {
      input: row.input,
      model: row.model as ResearchRequest['model'],
      citationFormat: options.citation_format,
      outputLength: options.output_length,
      includeDomains: options.include_domains,
      excludeDomains: options.exclude_domains,
      ...(options.output_schema ? { outputSchema: options.output_schema } : {}),
      ...(options.max_tokens !== undefined ? { maxTokens: options.max_tokens } : {}),
    },
    resolvedModel: row.resolvedModel as ResearchTask['resolvedModel'],
    status: row.status,
    content: (row.content ?? null) as ResearchTask['content'],
    sources: (row.sources ?? []) as unknown as ResearchSource[],
    // One column holds both: a failed task's reason, and why a completed one is partial.
    error: row.status === 'failed' ? row.error : null,
    partialReason: row.status === 'completed' ? row.error : null,
    mode: row.mode,
    checkpoint: (row.checkpoint ?? null) as unknown as ResearchCheckpoint | null,
    work: (row.work ?? null) as unknown as ResearchWork | null,
    reservation: (row.reservation ?? null) as unknown as Reservation | null,
    credits: row.credits,
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    completedAt: row.completedAt,
    deadlineAt: row.deadlineAt,
  };
}

/**
 * The one owner of research_tasks. Reads are scoped by the account (another account's task does not exist for
 * the caller), and a finished task is final: every transition is conditional on the task being unfinished, so a
 * late worker, a retried job, the deadline sweep and a GET racing each other change it at most once.
 */
export class ResearchTaskRepository {
  constructor(
    private readonly prisma: PrismaClient,
    /** The deployment's QUEUE_PREFIX: each task records it, and only its own prefix's tasks are queued again (findUnfinished). */
    private readonly queuePrefix: string,
  ) {}

  async create(task: NewResearchTask): Promise<ResearchTask> {
    const row = await this.prisma.researchTask.create({
      data: {
        requestId: task.requestId,
        accountId: task.accountId,
        apiKeyId: task.apiKeyId,
        projectId: task.projectId,
        input: task.request.input,
        model: task.request.model,
        options: optionsOf(task.request) as object,
        ...(task.reservation ? { reservation: task.reservation as object } : {}),
        createdAt: task.createdAt,
        deadlineAt: task.deadlineAt,
        queuePrefix: this.queuePrefix,
      },
    });
    return taskOf(row);
  }

  /** The account's task, or null: unknown ids, malformed ids and other accounts' tasks alike. */
  async findForAccount(accountId: string, requestId: string): Promise<ResearchTask | null> {
    if (!UUID.test(requestId) || !UUID.test(accountId)) return null;
    const row = await this.prisma.researchTask.findFirst({ where: { requestId, accountId } });
    return row ? taskOf(row) : null;
  }

  /** A worker picked the task up; a task resumed after a crash keeps its first start time. */
  async markInProgress(requestId: string): Promise<void> {
    await this.prisma.researchTask.updateMany({ where: { requestId, status: 'pending' }, data: { status: 'in_progress', startedAt: new Date() } });
  }

  async saveCheckpoint(requestId: string, checkpoint: ResearchCheckpoint): Promise<void> {
    await this.prisma.researchTask.updateMany({
      where: { requestId, status: { in: [...UNFINISHED] } },
      data: {
        checkpoint: checkpoint as unknown as object,
        ...(checkpoint.resolvedModel ? { resolvedModel: checkpoint.resolvedModel } : {}),
      },
    });
  }

  /** Stores the report; false when the task had already finished (failed at its deadline meanwhile): it is not rewritten. */
  async complete(requestId: string, report: ResearchReport): Promise<boolean> {
    const { count } = await this.prisma.researchTask.updateMany({
      where: { requestId, status: { in: [...UNFINISHED] } },
      data: {
        status: 'completed',
        content: report.content as object,
        sources: report.sources as object,
        mode: report.mode,
        resolvedModel: report.resolvedModel,
        work: report.work as object,
        error: report.partialReason ?? null,
        completedAt: new Date(),
      },
    });
    return count === 1;
  }

  /**
   * The credits the completed task was charged (the settle's own answer, the same on a replay); true for the one
   * caller that recorded them (the worker and a GET may settle the same task at once).
   */
  async recordCredits(requestId: string, credits: number): Promise<boolean> {
    const { count } = await this.prisma.researchTask.updateMany({ where: { requestId, status: 'completed', credits: null }, data: { credits } });
    return count === 1;
  }

  /** Fails an unfinished task and returns it; null when it had finished. Its hold is released before (ResearchTaskFinisher). */
  async fail(requestId: string, error: string): Promise<ResearchTask | null> {
    const [row] = await this.prisma.researchTask.updateManyAndReturn({
      where: { requestId, status: { in: [...UNFINISHED] } },
      data: { status: 'failed', error, completedAt: new Date() },
    });
    return row ? taskOf(row) : null;
  }

  /** The unfinished tasks past their deadline (or only the given one), whose holds are to be released before they fail. */
  async findOverdue(only?: { requestId: string }, now = new Date()): Promise<ResearchTask[]> {
    if (only && !UUID.test(only.requestId)) return [];
    const rows = await this.prisma.researchTask.findMany({
      where: { ...(only ? { requestId: only.requestId } : {}), status: { in: [...UNFINISHED] }, deadlineAt: { lte: now } },
    });
    return rows.map(taskOf);
  }

  /**
   * This prefix's unfinished tasks within their deadline created before `createdBefore`, oldest first, at most
   * `limit`: those whose job may have been lost with Redis, to be queued again (a job that still exists is not
   * queued twice). Other prefixes' tasks are their deployments' to queue: their jobs are in queues of their own.
   */
  async findUnfinished(createdBefore: Date, limit: number, now = new Date()): Promise<Pick<ResearchTask, 'requestId' | 'accountId' | 'deadlineAt'>[]> {
    return this.prisma.researchTask.findMany({
      where: { queuePrefix: this.queuePrefix, status: { in: [...UNFINISHED] }, createdAt: { lte: createdBefore }, deadlineAt: { gt: now } },
      select: { requestId: true, accountId: true, deadlineAt: true },
      orderBy: { createdAt: 'asc' },
      take: limit,
    });
  }

  /**
   * Fails those of the given tasks that are still unfinished past their deadline and returns them, so their streams
   * are told. No task stays pending or in progress forever, with or without a worker.
   */
  async failOverdue(requestIds: readonly string[], now = new Date()): Promise<ResearchTask[]> {
    if (requestIds.length === 0) return [];
    const rows = await this.prisma.researchTask.updateManyAndReturn({
      where: { requestId: { in: [...requestIds] }, status: { in: [...UNFINISHED] }, deadlineAt: { lte: now } },
      data: { status: 'failed', error: OVERDUE_REASON, completedAt: now },
    });
    return rows.map(taskOf);
  }
}
