import { Inject, Injectable } from '@nestjs/common';
import { ResearchRequestDto, ResearchResponseDto } from '@sift/api-contracts';
import { RESEARCH_CEILINGS, RESEARCH_MINIMUM, researchCreditsBound } from '@sift/billing';
import type { ResearchDeadlineConfig } from '@sift/config';
import { JobQueue } from '@sift/queue';
import {
  compileOutputSchema,
  queueResearchTask,
  researchDeadlineMs,
  ResearchRequest,
  ResearchTask,
  ResearchTaskFinisher,
  ResearchTaskRepository,
  unfilledFields,
} from '@sift/research';
import { MeteringService } from '../billing/metering.service';
import { keyedCaller, RequestContext, responseTimeSeconds } from '../caller/request-context';
import { ApiError } from '../http/api-error';
import { fitReport } from '../http/token-budget';
import { failuresRecordedWith, NO_USAGE, RequestOutcome } from '../request-log/request-outcome';
import { RESEARCH_DEADLINES } from './research.providers';

export const TASK_NOT_FOUND = 'Research task not found';

/** A GET's answer: 202 while the task runs, 200 once it has finished (completed or failed). */
export interface ResearchPoll {
  status: 200 | 202;
  body: ResearchResponseDto;
}

function requestOf(body: ResearchRequestDto): ResearchRequest {
  return {
    input: body.input,
    model: body.model,
    outputLength: body.output_length,
    citationFormat: body.citation_format,
    includeDomains: body.include_domains,
    excludeDomains: body.exclude_domains,
    ...(body.output_schema ? { outputSchema: body.output_schema } : {}),
    ...(body.max_tokens !== undefined ? { maxTokens: body.max_tokens } : {}),
  };
}

/**
 * POST /research stores the task and queues it (the research worker does the work); GET /research/{id} reads the
 * task's row, so any gateway answers and a gateway restart loses nothing.
 */
@Injectable()
export class ResearchService {
  constructor(
    private readonly tasks: ResearchTaskRepository,
    private readonly finisher: ResearchTaskFinisher,
    private readonly metering: MeteringService,
    private readonly jobQueue: JobQueue,
    @Inject(RESEARCH_DEADLINES) private readonly deadlines: ResearchDeadlineConfig,
  ) {}

  async start(context: RequestContext, body: ResearchRequestDto): Promise<RequestOutcome<ResearchResponseDto>> {
    if (body.output_schema !== undefined) {
      const compiled = compileOutputSchema(body.output_schema);
      if (typeof compiled === 'string') throw new ApiError(400, compiled);
    }
    return failuresRecordedWith({ ...NO_USAGE, depth: body.model }, () => this.queue(context, body));
  }

  private async queue(context: RequestContext, body: ResearchRequestDto): Promise<RequestOutcome<ResearchResponseDto>> {
    const caller = keyedCaller(context);
    const createdAt = new Date();
    const deadlineMs = researchDeadlineMs(body.model, this.deadlines);
    // The model's ceiling is held until the task ends (its deadline at most); the worker fits its work to the grant.
    const bounds = { maximumCredits: researchCreditsBound(RESEARCH_CEILINGS[body.model]), minimumCredits: researchCreditsBound(RESEARCH_MINIMUM), deadlineMs };
    return this.metering.withReservation(context, 'research', bounds, async (reservation) => {
      const task = await this.tasks.create({
        requestId: context.requestId,
        accountId: caller.accountId,
        apiKeyId: caller.apiKeyId,
        projectId: reservation?.projectId ?? null,
        request: requestOf(body),
        reservation,
        createdAt,
        deadlineAt: new Date(createdAt.getTime() + deadlineMs),
      });
      try {
        await queueResearchTask(this.jobQueue, task);
      } catch (error) {
        // Not queued (Redis down): the task fails at once rather than waiting for its deadline, its hold released.
        await this.finisher.fail(task, 'The research task could not be queued.');
        throw error;
      }
      const response: ResearchResponseDto = {
        request_id: task.requestId,
        created_at: task.createdAt.toISOString(),
        status: 'pending',
        input: task.request.input,
        model: task.request.model,
        response_time: responseTimeSeconds(context),
      };
      // Charged when the task completes (the worker settles); the request log holds the task's start.
      return { response, usage: { depth: body.model, credits: 0, detail: { deadline_at: task.deadlineAt.toISOString() } } };
    });
  }

  /**
   * The caller's task as GET /research/{id} shows it; a task past its deadline is failed here and then. A completed
   * report is cut to `maxTokens` when given (an MCP tool call's budget), else to the request's own max_tokens.
   */
  async poll(context: RequestContext, requestId: string, includeUsage: boolean, maxTokens?: number): Promise<ResearchPoll> {
    const task = await this.findTask(context, requestId);
    const response_time = responseTimeSeconds(context);
    const usage = includeUsage ? { usage: { credits: task.credits ?? 0 } } : {};
    switch (task.status) {
      case 'pending':
      case 'in_progress':
        return { status: 202, body: { request_id: task.requestId, status: task.status, response_time } };
      case 'completed': {
        const unfilled = unfilledFields(task.request.outputSchema, task.content);
        const budget = maxTokens ?? task.request.maxTokens;
        const fitted = budget === undefined ? undefined : fitReport(task.content ?? '', budget);
        return {
          status: 200,
          body: {
            request_id: task.requestId,
            created_at: task.createdAt.toISOString(),
            completed_at: (task.completedAt ?? task.createdAt).toISOString(),
            status: 'completed',
            ...(task.resolvedModel ? { model: task.resolvedModel } : {}),
            content: fitted?.content ?? task.content ?? '',
            sources: task.sources,
            ...(task.mode ? { report_mode: task.mode } : {}),
            ...(task.partialReason !== null ? { partial: true, partial_reason: task.partialReason } : {}),
            ...(unfilled.length > 0 ? { unfilled_fields: unfilled } : {}),
            ...(fitted ? { token_budget: fitted.budget } : {}),
            response_time,
            ...usage,
          },
        };
      }
      case 'failed':
        return { status: 200, body: { request_id: task.requestId, status: 'failed', error: task.error ?? 'Research failed.', response_time, ...usage } };
    }
  }

  /**
   * The caller's task, failed first when its deadline has passed, charged first when it is stored but not yet
   * charged (the worker is between the two, or died there); 404 for an unknown id or another account's.
   */
  async findTask(context: RequestContext, requestId: string): Promise<ResearchTask> {
    const caller = keyedCaller(context);
    const task = await this.tasks.findForAccount(caller.accountId, requestId);
    if (!task) throw new ApiError(404, TASK_NOT_FOUND);
    if (task.status === 'completed' && task.credits === null) {
      // The settle is idempotent per task: racing the worker's own, one charges and the other replays it.
      await this.finisher.settleCompleted(task);
      return (await this.tasks.findForAccount(caller.accountId, requestId)) ?? task;
    }
    if ((task.status === 'pending' || task.status === 'in_progress') && task.deadlineAt.getTime() <= Date.now()) {
      const [failed] = await this.finisher.failOverdue({ requestId });
      // Not failed here: a worker finished it meanwhile; read what it stored.
      return failed ?? (await this.tasks.findForAccount(caller.accountId, requestId)) ?? task;
    }
    return task;
  }
}
