import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsNotEmpty, IsObject, IsString } from 'class-validator';
import { IsOptionalNotNull, NullAsOmitted } from '../common/is-optional-not-null.decorator';
import { MaxTokensField } from '../common/token-budget.dto';
import { NullAsDefault } from '../common/null-as-default.transform';
import {
  CITATION_FORMATS,
  CitationFormat,
  RESEARCH_LIMITS,
  RESEARCH_MODELS,
  RESEARCH_OUTPUT_LENGTHS,
  ResearchModel,
  ResearchOutputLength,
} from './research.constants';

/**
 * The `max_tokens` of POST /research and of the MCP research tools: `report` names the report cut (a tool call's
 * is the one it returns); what is counted is the same everywhere.
 */
export function ResearchMaxTokensField(report: string): PropertyDecorator {
  return MaxTokensField(`${report} (content; with output_schema, its string values in order)`);
}

/** Body of POST /research, as `@tavily/core` sends it (`input`, `model`, `output_schema`, `stream`, `citation_format`). */
export class ResearchRequestDto {
  @ApiProperty({ description: 'The research question.', example: 'How do European heat pump subsidies compare in 2025?' })
  @IsString()
  @IsNotEmpty()
  input!: string;

  @ApiPropertyOptional({
    description: 'mini: a focused question, fewer searches and sources; pro: broader, several angles and more sources; auto: pro for broad, long or many-part questions, otherwise mini.',
    enum: RESEARCH_MODELS,
    default: 'auto',
  })
  @NullAsDefault('auto')
  @IsIn(RESEARCH_MODELS)
  model: ResearchModel = 'auto';

  @ApiPropertyOptional({ description: 'Size target, not a hard cap.', enum: RESEARCH_OUTPUT_LENGTHS, default: 'standard' })
  @NullAsDefault('standard')
  @IsIn(RESEARCH_OUTPUT_LENGTHS)
  output_length: ResearchOutputLength = 'standard';

  @ApiPropertyOptional({
    type: [String],
    maxItems: RESEARCH_LIMITS.includeDomains,
    default: [],
    description: 'Soft preference, host-based, subdomains included; other domains can still appear.',
  })
  @NullAsDefault([])
  @IsArray()
  @ArrayMaxSize(RESEARCH_LIMITS.includeDomains)
  @IsString({ each: true })
  include_domains: string[] = [];

  @ApiPropertyOptional({
    type: [String],
    maxItems: RESEARCH_LIMITS.excludeDomains,
    default: [],
    description: 'Hard blocklist; a listed domain also blocks its subdomains, not its parent.',
  })
  @NullAsDefault([])
  @IsArray()
  @ArrayMaxSize(RESEARCH_LIMITS.excludeDomains)
  @IsString({ each: true })
  exclude_domains: string[] = [];

  @ApiPropertyOptional({ description: 'How the report cites its sources: [1] markers, or MLA, APA or Chicago style.', enum: CITATION_FORMATS, default: 'numbered' })
  @NullAsDefault('numbered')
  @IsIn(CITATION_FORMATS)
  citation_format: CitationFormat = 'numbered';

  @ApiPropertyOptional({ description: 'Stream progress and the report as server-sent events.', default: false })
  @NullAsDefault(false)
  @IsBoolean()
  stream: boolean = false;

  @ApiPropertyOptional({ description: 'JSON Schema the report content must follow; content is then an object.', type: 'object', additionalProperties: true })
  @NullAsOmitted()
  @IsOptionalNotNull()
  @IsObject()
  output_schema?: Record<string, unknown>;

  @ResearchMaxTokensField('the report')
  max_tokens?: number;
}

/** The request Swagger UI fills in: the mini model, which has the lowest ceilings; poll GET /research/{request_id}. */
export const RESEARCH_REQUEST_EXAMPLE = { input: 'How do search engines rank web pages?', model: 'mini' } satisfies Partial<ResearchRequestDto>;
