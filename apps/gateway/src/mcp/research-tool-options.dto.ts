import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NullAsDefault, ResearchMaxTokensField, stackedDecorators as stacked } from '@sift/api-contracts';
import { IsNotEmpty, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/**
 * How long a research tool call waits, in seconds. The default keeps a call under the MCP SDK client's default
 * request timeout (60 s); the maximum is the longest research deadline (pro and auto, 15 minutes).
 */
export const RESEARCH_TOOL_TIMEOUT = { defaultSeconds: 50, maximumSeconds: 900 } as const;

/** Research task ids are UUIDs; the bound only keeps an absurd argument out of the database query. */
const RESEARCH_REQUEST_ID_MAX_LENGTH = 100;

/** A research tool's `timeout`, the same bounds on both tools; `ifStillRunning` says what the call then returns, and what 0 does. */
export function ResearchToolTimeoutField(ifStillRunning: string): PropertyDecorator {
  return stacked(
    ApiPropertyOptional({
      description:
        `Seconds to wait for the report. If the task is still running then, ${ifStillRunning} More than about 55 needs an MCP ` +
        'client whose request timeout is longer than the usual 60 s.',
      minimum: 0,
      maximum: RESEARCH_TOOL_TIMEOUT.maximumSeconds,
      default: RESEARCH_TOOL_TIMEOUT.defaultSeconds,
    }),
    NullAsDefault(RESEARCH_TOOL_TIMEOUT.defaultSeconds),
    IsNumber(),
    Min(0),
    Max(RESEARCH_TOOL_TIMEOUT.maximumSeconds),
  );
}

/** A research tool's `request_id`: the task to wait for, optional where the call may start one instead. */
export function ResearchToolRequestIdField(description: string, { optional }: { optional: boolean }): PropertyDecorator {
  const documented = { description, maxLength: RESEARCH_REQUEST_ID_MAX_LENGTH };
  return stacked(
    ...(optional ? [ApiPropertyOptional(documented), IsOptional()] : [ApiProperty(documented)]),
    IsString(),
    IsNotEmpty(),
    MaxLength(RESEARCH_REQUEST_ID_MAX_LENGTH),
  );
}

/** A research tool's `max_tokens`: it bounds the report that call returns. */
export function ResearchToolMaxTokensField(): PropertyDecorator {
  return ResearchMaxTokensField('the report the call returns');
}

/**
 * The research tool's own arguments beside POST /research's body. A tool call cannot stream, so it waits for the
 * report instead, and can come back to a task it stopped waiting for.
 */
export class ResearchToolOptionsDto {
  @ResearchToolTimeoutField(
    'the call returns its request_id and status: call tavily_research again with that request_id to keep waiting. 0 starts the task and returns at once.',
  )
  timeout: number = RESEARCH_TOOL_TIMEOUT.defaultSeconds;

  @ResearchToolRequestIdField(
    'The request_id an earlier tavily_research call returned while its task was still running: waits for that task again ' +
      'instead of starting a new one (input and the other research arguments are then not needed, and waiting again costs nothing).',
    { optional: true },
  )
  request_id?: string;

  // The body has a max_tokens too: this one gives the tool's schema its wording and is validated also when a call only waits (no body then).
  @ResearchToolMaxTokensField()
  max_tokens?: number;
}
