import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MaxTokensField, NullAsDefault } from '@sift/api-contracts';
import { IsNotEmpty, IsNumber, IsString, Max, MaxLength, Min } from 'class-validator';
import { RESEARCH_REQUEST_ID_MAX_LENGTH, RESEARCH_TOOL_BUDGETED_TEXT, RESEARCH_TOOL_TIMEOUT } from './research-tool-options.dto';

/**
 * tavily_get_research's arguments, as Tavily's remote MCP server names them: the task to wait for, and how long
 * to wait (the same bounds as tavily_research's `timeout`).
 */
export class GetResearchToolArgumentsDto {
  @ApiProperty({
    description: 'The request_id tavily_research (or POST /research) returned: the task whose report to wait for and return.',
    maxLength: RESEARCH_REQUEST_ID_MAX_LENGTH,
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(RESEARCH_REQUEST_ID_MAX_LENGTH)
  request_id!: string;

  @ApiPropertyOptional({
    description:
      'Seconds to wait for the report. If the task is still running then, the call returns its status: call again to keep ' +
      'waiting. 0 returns the current state at once. More than about 55 needs an MCP client whose request timeout is longer ' +
      'than the usual 60 s.',
    minimum: 0,
    maximum: RESEARCH_TOOL_TIMEOUT.maximumSeconds,
    default: RESEARCH_TOOL_TIMEOUT.defaultSeconds,
  })
  @NullAsDefault(RESEARCH_TOOL_TIMEOUT.defaultSeconds)
  @IsNumber()
  @Min(0)
  @Max(RESEARCH_TOOL_TIMEOUT.maximumSeconds)
  timeout: number = RESEARCH_TOOL_TIMEOUT.defaultSeconds;

  @MaxTokensField(RESEARCH_TOOL_BUDGETED_TEXT)
  max_tokens?: number;
}
