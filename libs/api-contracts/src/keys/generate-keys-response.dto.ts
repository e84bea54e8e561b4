import { ApiProperty } from '@nestjs/swagger';
import { KEY_TYPES, KeyType } from './keys.constants';

/** One created key without its secret: what deactivate-keys and key-info need to find it again. */
export class GeneratedKeyDetailsDto {
  @ApiProperty({ description: 'Key id, for POST /deactivate-keys `key_ids` and GET /key-info `key_id`.' })
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ enum: KEY_TYPES })
  key_type!: KeyType;

  @ApiProperty({ type: Number, nullable: true, description: 'Credits per billing period; null: only the account limits apply.' })
  key_limit!: number | null;

  @ApiProperty({ type: String, nullable: true })
  project_id!: string | null;

  @ApiProperty({ type: String, nullable: true, description: "The team member the key acts as; null for the operator's account-level keys." })
  member_id!: string | null;
}

/** Tavily's answer (keys, expires_at, created, message, request_id) plus the ids of the keys and the response time. */
export class GenerateKeysResponseDto {
  @ApiProperty({ type: [String], description: 'The new keys. Shown only in this response: only their hashes are stored.', example: ['sift-dev-…'] })
  keys!: string[];

  @ApiProperty({ type: [GeneratedKeyDetailsDto], description: 'The same keys in the same order, without their secrets.' })
  key_details!: GeneratedKeyDetailsDto[];

  @ApiProperty({ description: 'ISO 8601 date-time at which the keys stop working, or "never".', example: '2026-02-25T01:14:45.000Z' })
  expires_at!: string;

  @ApiProperty({ description: 'ISO 8601 date-time of creation.' })
  created!: string;

  // The answer to GENERATE_KEYS_REQUEST_EXAMPLE (one development key, 200 credits, 24 hours), word for word.
  @ApiProperty({ example: '1 key generated successfully with 200 credits each. This key will be automatically deactivated after 24 hours' })
  message!: string;

  @ApiProperty({ description: 'Identifies this generation; POST /deactivate-keys with this request_id deactivates all its keys.' })
  request_id!: string;

  @ApiProperty({ description: 'Seconds.' })
  response_time!: number;
}
