import { Body, Controller, Get, Param, Post, Query, Res, UseFilters } from '@nestjs/common';
import { ApiQuery, ApiResponse } from '@nestjs/swagger';
import { RESEARCH_REQUEST_EXAMPLE, ResearchRequestDto, ResearchResponseDto } from '@sift/api-contracts';
import { RESEARCH_CEILINGS, researchCreditsBound } from '@sift/billing';
import type { Response } from 'express';
import { Ctx, RequestContext } from '../caller/request-context';
import { RateLimitCategory } from '../caller/route-access.decorator';
import { Endpoint } from '../http/endpoint.decorator';
import type { RequestOutcome } from '../request-log/request-outcome';
import { InvalidResearchModelFilter, INVALID_MODEL } from './invalid-model.filter';
import { ResearchService, TASK_NOT_FOUND } from './research.service';
import { ResearchStream } from './research-stream';

const CEILINGS = (['mini', 'pro', 'auto'] as const)
  .map((model) => `${model}: at most ${RESEARCH_CEILINGS[model].searches} searches and ${RESEARCH_CEILINGS[model].extractions} pages read, ${researchCreditsBound(RESEARCH_CEILINGS[model])} credits`)
  .join('; ');

@Controller()
export class ResearchController {
  constructor(
    private readonly researchService: ResearchService,
    private readonly stream: ResearchStream,
  ) {}

  @Post('research')
  @RateLimitCategory('research')
  @UseFilters(InvalidResearchModelFilter)
  @Endpoint({
    tag: 'data',
    operationId: 'research',
    summary: 'Start a research task: a cited report from several sources (poll GET /research/{request_id}, or stream)',
    description:
      'Answers 200 with the pending task at once; the research worker plans, searches, reads and writes the report. ' +
      'With `stream: true` the answer is `text/event-stream`: `chat.completion.chunk` frames (tool calls, tool responses, ' +
      'content, sources), then `event: done`, or `event: error`. A client that disconnects does not cancel the task: it ' +
      'finishes and is stored for GET /research/{request_id}. Charged when the task completes, for the work done: searches ' +
      `at the basic search rate, pages read at 1 credit per 5; a failed task costs nothing. Per-model ceilings: ${CEILINGS}.`,
    response: ResearchResponseDto,
    body: { type: ResearchRequestDto, example: RESEARCH_REQUEST_EXAMPLE },
    billed: true,
    requestLog: 'research',
    errors: { 400: `${INVALID_MODEL} / invalid output_schema`, 429: 'More than the per-key research requests per minute (20 by default)' },
  })
  async research(@Ctx() context: RequestContext, @Body() body: ResearchRequestDto, @Res() response: Response): Promise<RequestOutcome<ResearchResponseDto>> {
    const outcome = await this.researchService.start(context, body);
    if (body.stream) void this.stream.send(context, { requestId: outcome.response.request_id, model: body.model, maxTokens: body.max_tokens }, response);
    else response.status(200).json(outcome.response);
    return outcome;
  }

  @Get('research/:request_id')
  @Endpoint({
    tag: 'data',
    operationId: 'getResearch',
    summary: 'A research task: 202 while pending or in progress, 200 with the report when completed or the reason when failed',
    description: 'A task past its deadline (by default 5 minutes for mini, 15 for pro and auto, from its creation) is failed with the reason.',
    response: ResearchResponseDto,
    errors: { 404: TASK_NOT_FOUND },
  })
  @ApiResponse({ status: 202, description: 'Still running: request_id, status (pending or in_progress), response_time.', type: ResearchResponseDto })
  @ApiQuery({ name: 'include_usage', required: false, type: Boolean, description: 'Adds usage.credits: what the task was charged.' })
  async poll(
    @Ctx() context: RequestContext,
    @Param('request_id') requestId: string,
    @Query('include_usage') includeUsage: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ResearchResponseDto> {
    const poll = await this.researchService.poll(context, requestId, includeUsage === 'true');
    response.status(poll.status);
    return poll.body;
  }
}
