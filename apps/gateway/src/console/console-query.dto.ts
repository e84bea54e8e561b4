import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, IsUUID, Matches, Max, MaxLength, Min } from 'class-validator';
import { LOG_ENDPOINTS } from '@sift/api-contracts';
import type { UsageBucketSize, UsageGrouping } from '@sift/persistence';

export const BUCKET_SIZES: readonly UsageBucketSize[] = ['hour', 'day'];
export const GROUPINGS: readonly UsageGrouping[] = ['endpoint', 'key', 'account'];
export const REQUEST_PAGE_LIMITS = { min: 1, max: 200, default: 50 } as const;
export const ACCOUNT_LIST_LIMITS = { min: 1, max: 500, default: 200 } as const;

/** Which requests a console view covers: a time range and optional account, key, endpoint and status. */
export class ConsoleFilterDto {
  /** ISO 8601; default: `to` minus 24 hours. */
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  /** ISO 8601, exclusive; default: now. */
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  @IsOptional()
  @IsUUID()
  account?: string;

  @IsOptional()
  @IsUUID()
  key?: string;

  @IsOptional()
  @IsIn(LOG_ENDPOINTS)
  endpoint?: string;

  /** One code (`429`), a class (`4xx`), or `errors` (400 and above). */
  @IsOptional()
  @Matches(/^(?:[1-5](?:xx|\d\d)|errors)$/, { message: 'status must be a status code (429), a class (4xx) or "errors"' })
  status?: string;
}

export class LatencyQueryDto extends ConsoleFilterDto {
  /** Default: hours for a range of up to three days, days beyond. */
  @IsOptional()
  @IsIn(BUCKET_SIZES)
  bucket?: UsageBucketSize;
}

export class UsageQueryDto extends LatencyQueryDto {
  @IsOptional()
  @IsIn(GROUPINGS)
  group_by?: UsageGrouping;
}

export class RequestsQueryDto extends ConsoleFilterDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(REQUEST_PAGE_LIMITS.min)
  @Max(REQUEST_PAGE_LIMITS.max)
  limit?: number;

  /** `next_cursor` of the previous page. */
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z~\d+$/, { message: 'cursor must be a next_cursor of a previous page' })
  cursor?: string;
}

export class AccountsQueryDto {
  /** Part of an account's name (any case), or its id. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(ACCOUNT_LIST_LIMITS.min)
  @Max(ACCOUNT_LIST_LIMITS.max)
  limit?: number;
}
