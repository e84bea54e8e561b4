import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { IsOptionalNotNull } from '../common/is-optional-not-null.decorator';
import { KEY_MANAGEMENT_LIMITS } from '../keys/keys.constants';
import { KEY_ENVIRONMENTS } from './admin.constants';

export class AdminKeyDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'default' })
  name!: string;

  @ApiProperty({ example: 'sift-prod-Ab3', description: 'The first characters of the key; with last_four, enough to recognise it.' })
  prefix!: string;

  @ApiProperty({ example: 'x9Zq' })
  last_four!: string;

  @ApiProperty({ enum: KEY_ENVIRONMENTS })
  environment!: string;

  @ApiProperty({ enum: ['active', 'deactivated'] })
  status!: string;

  @ApiProperty({ type: 'integer', nullable: true })
  credit_limit!: number | null;

  @ApiProperty({ type: String, nullable: true, description: "The team member the key acts as; null: the operator's key, with the owner's rights." })
  member_id!: string | null;

  @ApiProperty({ description: 'ISO 8601 date-time.' })
  created_at!: string;

  @ApiProperty({ type: String, nullable: true })
  expires_at!: string | null;

  @ApiProperty({ type: String, nullable: true })
  deactivated_at!: string | null;
}

export class AdminKeysResponseDto {
  @ApiProperty({ example: 'acme' })
  account!: string;

  @ApiProperty({ type: [AdminKeyDto] })
  keys!: AdminKeyDto[];
}

export class AdminCreateKeyRequestDto {
  @ApiPropertyOptional({ default: 'default', maxLength: KEY_MANAGEMENT_LIMITS.nameCharacters })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(KEY_MANAGEMENT_LIMITS.nameCharacters)
  name?: string;

  @ApiPropertyOptional({ enum: KEY_ENVIRONMENTS, default: 'dev', description: 'dev: `sift-dev-…` with the development rate limit; prod: `sift-prod-…`.' })
  @IsOptionalNotNull()
  @IsIn(KEY_ENVIRONMENTS)
  environment?: (typeof KEY_ENVIRONMENTS)[number];

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Monthly credit limit of this key. Absent: none.' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(0)
  credit_limit?: number;

  @ApiPropertyOptional({
    example: 'dev@example.com',
    description: "The team member (e-mail or id) the key belongs to and acts as, with the member's role. Absent: the operator's key, with the owner's rights.",
  })
  @IsOptionalNotNull()
  @IsString()
  member?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: KEY_MANAGEMENT_LIMITS.ttlHours.min, maximum: KEY_MANAGEMENT_LIMITS.ttlHours.max, description: 'The key stops authenticating this many hours from now.' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(KEY_MANAGEMENT_LIMITS.ttlHours.min)
  @Max(KEY_MANAGEMENT_LIMITS.ttlHours.max)
  ttl_hours?: number;
}

export class AdminCreatedKeyResponseDto {
  @ApiProperty({ description: 'The key itself, shown this once: only its hash is stored.', example: 'sift-dev-…' })
  api_key!: string;

  @ApiProperty({ type: AdminKeyDto })
  key!: AdminKeyDto;

  @ApiProperty({ example: 'acme' })
  account!: string;

  @ApiProperty({ type: String, nullable: true, enum: ['owner', 'admin', 'member'] })
  member_role!: string | null;
}

export class AdminDeactivateKeyRequestDto {
  @ApiProperty({ description: 'The API key itself, when its id and account are not at hand.', example: 'sift-dev-…' })
  @IsString()
  @MinLength(1)
  api_key!: string;
}

export class AdminDeactivatedKeyResponseDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ enum: ['deactivated'] })
  status!: string;
}
