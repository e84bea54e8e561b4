import { ApiPropertyOptional } from '@nestjs/swagger';
import { MaxTokensField, NullAsDefault } from '@sift/api-contracts';
import { IsNotEmpty, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/**
 * How long a research tool call waits, in seconds. The default keeps a call under the MCP SDK client's default
 * request timeout (60 s); the maximum is the longest research deadline (pro and auto, 15 minutes).
 */
export const RESEARCH_TOOL_TIMEOUT = { defaultSeconds: 50, maximumSeconds: 900 } as const;

/** What a research tool's `max_tokens` bounds: the report that call returns. */
export const RESEARCH_TOOL_BUDGETED_TEXT = 'the report the call returns (content; with output_schema, its string values in order)';

/** Research task ids are UUIDs; the bound only keeps an absurd argument out of the database query. */
export const RESEARCH_REQUEST_ID_MAX_LENGTH = 100;

/**
 * The research tool's own arguments beside POST /research's body. A tool call cannot stream, so it waits for the
 * report instead, and can come back to a task it stopped waiting for.
 */
export class ResearchToolOptionsDto {
  @ApiPropertyOptional({
    description:
      'Seconds to wait for the report. If the task is still running then, the call returns its request_id and status: call ' +
      'tavily_research again with that request_id to keep waiting. 0 starts the task and returns at once. More than about 55 ' +
      'needs an MCP client whose request timeout is longer than the usual 60 s.',
    minimum: 0,
    maximum: RESEARCH_TOOL_TIMEOUT.maximumSeconds,
    default: RESEARCH_TOOL_TIMEOUT.defaultSeconds,
  })
  @NullAsDefault(RESEARCH_TOOL_TIMEOUT.defaultSeconds)
  @IsNumber()
  @Min(0)
  @Max(RESEARCH_TOOL_TIMEOUT.maximumSeconds)
  timeout: number = RESEARCH_TOOL_TIMEOUT.defaultSeconds;

  @ApiPropertyOptional({
    description:
      'The request_id an earlier tavily_research call returned while its task was still running: waits for that task again ' +
      'instead of starting a new one (input and the other research arguments are then not needed, and waiting again costs nothing).',
    maxLength: RESEARCH_REQUEST_ID_MAX_LENGTH,
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(RESEARCH_REQUEST_ID_MAX_LENGTH)
  request_id?: string;

  @MaxTokensField(RESEARCH_TOOL_BUDGETED_TEXT)
  max_tokens?: number;
}
