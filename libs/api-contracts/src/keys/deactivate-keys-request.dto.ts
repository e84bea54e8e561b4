import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString } from 'class-validator';
import { KEY_MANAGEMENT_LIMITS } from './keys.constants';

/**
 * Body of POST /deactivate-keys (enterprise plan). At least one of the two lists must be non-empty;
 * the service checks that (see deactivateKeysTargetMissing) so it can answer with its own 400 message.
 */
export class DeactivateKeysRequestDto {
  @ApiPropertyOptional({ type: [String], maxItems: KEY_MANAGEMENT_LIMITS.keysPerDeactivation, description: 'Full API keys to deactivate.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(KEY_MANAGEMENT_LIMITS.keysPerDeactivation)
  @IsString({ each: true })
  api_keys?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: KEY_MANAGEMENT_LIMITS.keysPerDeactivation, description: 'Key ids (from generate-keys or key-info) to deactivate.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(KEY_MANAGEMENT_LIMITS.keysPerDeactivation)
  @IsString({ each: true })
  key_ids?: string[];
}

/** True when the request names no key at all. */
export function deactivateKeysTargetMissing(dto: DeactivateKeysRequestDto): boolean {
  return !dto.api_keys?.length && !dto.key_ids?.length;
}
