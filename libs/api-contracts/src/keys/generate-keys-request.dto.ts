import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { IsOptionalNotNull } from '../common/is-optional-not-null.decorator';
import { NullAsDefault } from '../common/null-as-default.transform';
import { PROJECT_ID_MAX_CHARACTERS } from '../common/request-input.limits';
import { KEY_MANAGEMENT_LIMITS, KEY_TYPES, KeyType } from './keys.constants';

/**
 * The request Swagger UI fills in: one development key with a small credit limit that expires in a day. The fields'
 * own examples are its values, so the schema and the "Try it out" body show the same request.
 */
export const GENERATE_KEYS_REQUEST_EXAMPLE = { count: 1, name: 'ci', key_type: 'development', key_limit: 200, ttl_hours: 24 } satisfies Partial<GenerateKeysRequestDto>;

/**
 * Body of POST /generate-keys (enterprise plan), with Tavily's field names. Tavily's `permission_level` and `scope`
 * are accepted and ignored: what a key may do follows from the team member it belongs to (`member_id`).
 */
export class GenerateKeysRequestDto {
  @ApiPropertyOptional({
    type: 'integer',
    description: 'How many keys to create, all with the settings below.',
    minimum: KEY_MANAGEMENT_LIMITS.count.min,
    maximum: KEY_MANAGEMENT_LIMITS.count.max,
    default: KEY_MANAGEMENT_LIMITS.count.default,
  })
  @NullAsDefault(KEY_MANAGEMENT_LIMITS.count.default)
  @IsInt()
  @Min(KEY_MANAGEMENT_LIMITS.count.min)
  @Max(KEY_MANAGEMENT_LIMITS.count.max)
  count: number = KEY_MANAGEMENT_LIMITS.count.default;

  @ApiPropertyOptional({
    description: 'Name given to every key of this request. Absent: `{key_type}-{expiration}-#{index}`, e.g. `development-never-#1`.',
    maxLength: KEY_MANAGEMENT_LIMITS.nameCharacters,
    example: GENERATE_KEYS_REQUEST_EXAMPLE.name,
  })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(KEY_MANAGEMENT_LIMITS.nameCharacters)
  name?: string;

  @ApiPropertyOptional({
    enum: KEY_TYPES,
    default: 'development',
    description: 'development: the development rate limit and a `sift-dev-` key; production: the production ones. A development key creates development keys only.',
  })
  @NullAsDefault('development')
  @IsIn(KEY_TYPES)
  key_type: KeyType = 'development';

  @ApiPropertyOptional({
    type: 'integer',
    description:
      "Credits each key may use per billing period; past it the key is refused with 432. At most the calling key's own limit. Absent: the calling key's limit (none for an unlimited key).",
    minimum: KEY_MANAGEMENT_LIMITS.keyLimit.min,
    maximum: KEY_MANAGEMENT_LIMITS.keyLimit.max,
    example: GENERATE_KEYS_REQUEST_EXAMPLE.key_limit,
  })
  @IsOptionalNotNull()
  @IsInt()
  @Min(KEY_MANAGEMENT_LIMITS.keyLimit.min)
  @Max(KEY_MANAGEMENT_LIMITS.keyLimit.max)
  key_limit?: number;

  @ApiPropertyOptional({
    type: 'integer',
    description:
      "Hours until the keys stop working (401 from then on). No later than the calling key's own expiry. Absent: the calling key's expiry (never for a key without one).",
    minimum: KEY_MANAGEMENT_LIMITS.ttlHours.min,
    maximum: KEY_MANAGEMENT_LIMITS.ttlHours.max,
    example: GENERATE_KEYS_REQUEST_EXAMPLE.ttl_hours,
  })
  @IsOptionalNotNull()
  @IsInt()
  @Min(KEY_MANAGEMENT_LIMITS.ttlHours.min)
  @Max(KEY_MANAGEMENT_LIMITS.ttlHours.max)
  ttl_hours?: number;

  @ApiPropertyOptional({
    description: "Project the keys' usage is attributed to (as X-Project-ID would); created on first use.",
    maxLength: PROJECT_ID_MAX_CHARACTERS,
  })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(PROJECT_ID_MAX_CHARACTERS)
  project_id?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: "Team member the keys belong to and act as (owner: any member; admin: members). Absent: the calling key's member.",
  })
  @IsOptionalNotNull()
  @IsUUID()
  member_id?: string;
}
