import { ApiProperty } from '@nestjs/swagger';
import { KEY_ENVIRONMENTS, KeyEnvironment } from './keys.constants';

export class GeneratedKeyDto {
  @ApiProperty()
  id!: string;

  @ApiProperty({ description: 'The full key. Shown only in this response: only its hash is stored.' })
  api_key!: string;

  @ApiProperty({ type: String, nullable: true })
  name!: string | null;

  @ApiProperty({ enum: KEY_ENVIRONMENTS })
  environment!: KeyEnvironment;

  @ApiProperty({ type: Number, nullable: true })
  credit_limit!: number | null;

  @ApiProperty({ type: String, nullable: true })
  project_id!: string | null;

  @ApiProperty({ type: String, nullable: true, description: "The team member the key acts as; null for the operator's account-level keys." })
  member_id!: string | null;

  @ApiProperty({ description: 'ISO 8601 date-time.' })
  created_at!: string;
}

export class GenerateKeysResponseDto {
  @ApiProperty({ type: [GeneratedKeyDto] })
  keys!: GeneratedKeyDto[];

  @ApiProperty()
  request_id!: string;

  @ApiProperty({ description: 'Seconds.' })
  response_time!: number;
}
