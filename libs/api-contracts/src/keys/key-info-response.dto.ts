import { ApiProperty } from '@nestjs/swagger';
import { KEY_STATUSES, KEY_TYPES, KeyStatus, KeyType } from './keys.constants';

/**
 * Answer of GET /key-info (enterprise plan): Tavily's fields (name, created, expires_at, key_type, status) plus the
 * key's limit and usage. Never contains the key itself, only its prefix and last four.
 */
export class KeyInfoResponseDto {
  @ApiProperty()
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ example: 'sift-dev-a1b2' })
  prefix!: string;

  @ApiProperty({ example: 'a1b2' })
  last_four!: string;

  @ApiProperty({ enum: KEY_TYPES })
  key_type!: KeyType;

  @ApiProperty({ enum: KEY_STATUSES, description: 'deactivated once deactivated or past expires_at.' })
  status!: KeyStatus;

  @ApiProperty({ type: Number, nullable: true, description: 'Credits the key may use per billing period (key_limit); null when it has no own limit.' })
  limit!: number | null;

  @ApiProperty({ description: 'Credits used by this key in the current billing period.' })
  usage!: number;

  @ApiProperty({ description: 'ISO 8601 date-time of creation (Tavily names it created).' })
  created!: string;

  @ApiProperty({ description: 'ISO 8601 date-time of creation, the same as created.' })
  created_at!: string;

  @ApiProperty({ description: 'ISO 8601 date-time at which the key stops working, or "never".', example: 'never' })
  expires_at!: string;

  @ApiProperty({ type: String, nullable: true, description: 'ISO 8601 date-time of deactivation or expiry; null while active.' })
  deactivated_at!: string | null;

  @ApiProperty({ type: String, nullable: true })
  project_id!: string | null;

  @ApiProperty({ type: String, nullable: true, description: "The team member the key acts as; null for the operator's account-level keys." })
  member_id!: string | null;
}
