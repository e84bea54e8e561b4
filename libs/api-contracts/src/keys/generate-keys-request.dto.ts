import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { NullAsDefault } from '../common/null-as-default.transform';
import { DATABASE_INTEGER_MAX, PROJECT_ID_MAX_CHARACTERS } from '../common/request-input.limits';
import { KEY_ENVIRONMENTS, KEY_MANAGEMENT_LIMITS, KeyEnvironment } from './keys.constants';

/** Body of POST /generate-keys (enterprise plan). */
export class GenerateKeysRequestDto {
  @ApiPropertyOptional({
    type: 'integer',
    description: 'How many keys to create.',
    minimum: KEY_MANAGEMENT_LIMITS.count.min,
    maximum: KEY_MANAGEMENT_LIMITS.count.max,
    default: KEY_MANAGEMENT_LIMITS.count.default,
  })
  @NullAsDefault(KEY_MANAGEMENT_LIMITS.count.default)
  @IsInt()
  @Min(KEY_MANAGEMENT_LIMITS.count.min)
  @Max(KEY_MANAGEMENT_LIMITS.count.max)
  count: number = KEY_MANAGEMENT_LIMITS.count.default;

  @ApiPropertyOptional({ description: 'Label shown in key listings.', maxLength: KEY_MANAGEMENT_LIMITS.nameCharacters, example: 'ci-pipeline' })
  @IsOptional()
  @IsString()
  @MaxLength(KEY_MANAGEMENT_LIMITS.nameCharacters)
  name?: string;

  @ApiPropertyOptional({ enum: KEY_ENVIRONMENTS, default: 'prod' })
  @NullAsDefault('prod')
  @IsIn(KEY_ENVIRONMENTS)
  environment: KeyEnvironment = 'prod';

  @ApiPropertyOptional({
    type: 'integer',
    description: "Credits each key may use per billing period; at most the calling key's own limit. Absent: the calling key's limit (none for an unlimited key).",
    minimum: 0,
    maximum: DATABASE_INTEGER_MAX,
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(DATABASE_INTEGER_MAX)
  credit_limit?: number;

  @ApiPropertyOptional({ description: 'Project the keys are associated with.', maxLength: PROJECT_ID_MAX_CHARACTERS })
  @IsOptional()
  @IsString()
  @MaxLength(PROJECT_ID_MAX_CHARACTERS)
  project_id?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: "Team member the keys belong to and act as (owner: any member; admin: members). Absent: the calling key's member.",
  })
  @IsOptional()
  @IsUUID()
  member_id?: string;
}
