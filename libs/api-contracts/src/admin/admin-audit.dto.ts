import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { IsOptionalNotNull } from '../common/is-optional-not-null.decorator';
import { ADMIN_LIMITS, ADMIN_OUTCOMES } from './admin.constants';

/** Query of GET /admin/audit: newest first, a page at a time (before = the last id read). */
export class AdminAuditQueryDto {
  @ApiPropertyOptional({ description: 'Only events of this account (name or id).' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(200)
  account?: string;

  @ApiPropertyOptional({ example: 'keys', description: 'Only this action (keys.create) or family of actions (keys).' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(100)
  action?: string;

  @ApiPropertyOptional({ description: 'Only events older than this id: the next page.' })
  @IsOptionalNotNull()
  @Matches(/^\d{1,18}$/, { message: 'before must be an event id' })
  before?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: ADMIN_LIMITS.list.max, default: ADMIN_LIMITS.list.default })
  @IsOptionalNotNull()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(ADMIN_LIMITS.list.max)
  limit?: number;
}

export class AdminAuditEventDto {
  @ApiProperty({ example: '42' })
  id!: string;

  @ApiProperty({ description: 'ISO 8601 date-time the action started.' })
  occurred_at!: string;

  @ApiProperty({ type: String, nullable: true })
  finished_at!: string | null;

  @ApiProperty({ enum: ['api', 'cli'] })
  channel!: string;

  @ApiProperty({ example: 'admin-token:3f9a0c1b2d4e', description: "The operator credential's fingerprint, or the command line's user@host." })
  actor!: string;

  @ApiProperty({ example: 'keys.create' })
  action!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The input, without secrets.' })
  parameters!: Record<string, unknown>;

  @ApiProperty({ enum: ADMIN_OUTCOMES })
  outcome!: string;

  @ApiProperty({ type: String, nullable: true })
  error!: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  account_id!: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  job_id!: string | null;

  @ApiProperty({ type: String, nullable: true })
  request_id!: string | null;

  @ApiProperty({ type: String, nullable: true })
  client_ip!: string | null;
}

export class AdminAuditResponseDto {
  @ApiProperty({ type: [AdminAuditEventDto] })
  events!: AdminAuditEventDto[];
}

/** Query of GET /admin/jobs. */
export class AdminListQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: ADMIN_LIMITS.list.max, default: ADMIN_LIMITS.list.default })
  @IsOptionalNotNull()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(ADMIN_LIMITS.list.max)
  limit?: number;
}
