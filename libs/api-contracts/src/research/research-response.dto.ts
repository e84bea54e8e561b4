import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TokenBudgetDto } from '../common/token-budget.dto';
import { UsageCreditsDto } from '../common/usage-credits.dto';
import { RESEARCH_MODELS, RESEARCH_STATUSES, ResearchModel, ResearchStatus } from './research.constants';

export class ResearchSourceDto {
  @ApiProperty()
  title!: string;

  @ApiProperty()
  url!: string;

  @ApiPropertyOptional({ nullable: true, type: String, description: 'The site\'s favicon URL, when known.' })
  favicon?: string | null;
}

/**
 * Answer of POST /research (the queued task: request_id, created_at, status, input, model, response_time,
 * which `@tavily/core` reads) and of GET /research/{request_id} (adds content and sources once completed).
 */
export class ResearchResponseDto {
  @ApiProperty({ description: 'Identifier of the research task; poll GET /research/{request_id} with it.' })
  request_id!: string;

  @ApiPropertyOptional({ description: 'ISO 8601 date-time; absent while running and when failed.', example: '2025-06-01T12:00:00.000Z' })
  created_at?: string;

  @ApiProperty({ enum: RESEARCH_STATUSES })
  status!: ResearchStatus;

  @ApiPropertyOptional({ description: 'ISO 8601 date-time the report was finished; only when completed.' })
  completed_at?: string;

  @ApiPropertyOptional({ description: 'The research question.' })
  input?: string;

  @ApiPropertyOptional({ enum: RESEARCH_MODELS, description: 'As requested when queued; once completed, the model `auto` resolved to (mini or pro).' })
  model?: ResearchModel;

  @ApiPropertyOptional({
    description: 'The cited report (markdown), or an object when output_schema was given; only when completed.',
    oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }],
  })
  content?: string | Record<string, unknown>;

  @ApiPropertyOptional({ type: [ResearchSourceDto], description: 'Sources cited by content; only when completed.' })
  sources?: ResearchSourceDto[];

  @ApiPropertyOptional({
    enum: ['llm', 'extractive'],
    description:
      'Who wrote the report, only when completed (a Sift field): `llm`, the configured model from the sources; `extractive`, ' +
      'no model configured, the sources\' own sentences, each cited.',
  })
  report_mode?: 'llm' | 'extractive';

  @ApiPropertyOptional({
    description:
      'Present (true) only when completed and the task ran out of time before it finished (a Sift field): content was then ' +
      'written without a model from the sources gathered by then, and the task is charged for the work it did.',
  })
  partial?: boolean;

  @ApiPropertyOptional({ description: 'Why the report is partial; only with `partial`.' })
  partial_reason?: string;

  @ApiPropertyOptional({
    type: [String],
    description:
      'With output_schema, the fields of its `properties` that content lacks because no source supports a value for them ' +
      '(a Sift field); absent when every field was filled. A required field listed here is missing from content.',
  })
  unfilled_fields?: string[];

  @ApiPropertyOptional({
    type: TokenBudgetDto,
    description: 'Only when completed and a max_tokens applies (the request\'s, or an MCP tool call\'s): the budget, the tokens of content returned and whether it was cut.',
  })
  token_budget?: TokenBudgetDto;

  @ApiPropertyOptional({ description: 'Reason of the failure; only when failed.' })
  error?: string;

  @ApiProperty({ description: 'Seconds.' })
  response_time!: number;

  @ApiPropertyOptional({ type: UsageCreditsDto, description: 'Only when usage was requested.' })
  usage?: UsageCreditsDto;
}
