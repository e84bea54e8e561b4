import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsCalendarDateOrDateTime } from '../common/calendar-date.validator';
import { IsOptionalNotNull } from '../common/is-optional-not-null.decorator';
import { NullAsDefault } from '../common/null-as-default.transform';
import { PROJECT_ID_MAX_CHARACTERS } from '../common/request-input.limits';
import { LOGS_LIMITS, LOG_ENDPOINTS } from './logs.constants';

/** JSON body of POST /logs (paid plans; the spec does not show the path or method, the gateway chose POST). */
export class LogsRequestDto {
  @ApiPropertyOptional({ type: 'integer', minimum: LOGS_LIMITS.limit.min, maximum: LOGS_LIMITS.limit.max, default: LOGS_LIMITS.limit.default })
  @NullAsDefault(LOGS_LIMITS.limit.default)
  @IsInt()
  @Min(LOGS_LIMITS.limit.min)
  @Max(LOGS_LIMITS.limit.max)
  limit: number = LOGS_LIMITS.limit.default;

  @ApiPropertyOptional({ description: 'YYYY-MM-DD or ISO 8601 date-time; entries at or after it.', example: '2025-06-01' })
  @IsOptionalNotNull()
  @IsCalendarDateOrDateTime()
  start_date?: string;

  @ApiPropertyOptional({ description: 'YYYY-MM-DD or ISO 8601 date-time; entries before it.', example: '2025-06-30T23:59:59Z' })
  @IsOptionalNotNull()
  @IsCalendarDateOrDateTime()
  end_date?: string;

  // Only the type is checked here; an unknown endpoint name is a 400 with the service's own message.
  @ApiPropertyOptional({ type: [String], enum: LOG_ENDPOINTS, isArray: true, description: 'Only logs of these endpoints.' })
  @IsOptionalNotNull()
  @IsArray()
  @IsString({ each: true })
  endpoints?: string[];

  @ApiPropertyOptional({ description: 'Only logs attributed to this project.', maxLength: PROJECT_ID_MAX_CHARACTERS })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(PROJECT_ID_MAX_CHARACTERS)
  project_id?: string;

  @ApiPropertyOptional({
    description: 'true: only logs of the key in the Authorization header; false: all keys of the account.',
    default: false,
  })
  @NullAsDefault(false)
  @IsBoolean()
  filter_by_api_key: boolean = false;
}

/** The request Swagger UI fills in: the latest entries of the calling key. */
export const LOGS_REQUEST_EXAMPLE = { limit: 20, filter_by_api_key: true } satisfies Partial<LogsRequestDto>;
