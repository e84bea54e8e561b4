import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, MaxLength } from 'class-validator';
import { IsOptionalNotNull } from '../common/is-optional-not-null.decorator';
import { KEY_MANAGEMENT_LIMITS } from './keys.constants';

/** Request ids are UUIDs; the bound only keeps a junk value from reaching the database. */
const REQUEST_ID_MAX_CHARACTERS = 100;

/**
 * Body of POST /deactivate-keys (enterprise plan). Tavily's `request_id` retires every key of one generate-keys
 * call; `api_keys` and `key_ids` name keys one by one. Without any of the three (or without a body), the calling
 * key deactivates itself, as in Tavily.
 */
export class DeactivateKeysRequestDto {
  @ApiPropertyOptional({ description: 'The request_id of a POST /generate-keys answer: all keys it created.', maxLength: REQUEST_ID_MAX_CHARACTERS })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(REQUEST_ID_MAX_CHARACTERS)
  request_id?: string;

  @ApiPropertyOptional({ type: [String], maxItems: KEY_MANAGEMENT_LIMITS.keysPerDeactivation, description: 'Full API keys to deactivate.' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(KEY_MANAGEMENT_LIMITS.keysPerDeactivation)
  @IsString({ each: true })
  api_keys?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: KEY_MANAGEMENT_LIMITS.keysPerDeactivation, description: 'Key ids (from generate-keys key_details or key-info) to deactivate.' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(KEY_MANAGEMENT_LIMITS.keysPerDeactivation)
  @IsString({ each: true })
  key_ids?: string[];
}

/**
 * The request Swagger UI fills in: the keys of one generate-keys answer (put its request_id here). Never an empty
 * body, which deactivates the very key Swagger UI is authorised with.
 */
export const DEACTIVATE_KEYS_REQUEST_EXAMPLE = { request_id: '123e4567-e89b-42d3-a456-426614174000' } satisfies DeactivateKeysRequestDto;

/**
 * What the body asks for: the calling key (no field at all), nothing (only empty lists: refused rather than read
 * as "myself", so a client whose list came out empty does not lock itself out), or the keys it names.
 */
export function deactivationTarget(dto: DeactivateKeysRequestDto): 'calling-key' | 'nothing' | 'named-keys' {
  if (dto.request_id === undefined && dto.api_keys === undefined && dto.key_ids === undefined) return 'calling-key';
  return dto.request_id === undefined && !dto.api_keys?.length && !dto.key_ids?.length ? 'nothing' : 'named-keys';
}
