import { ApiProperty } from '@nestjs/swagger';
import { KEY_ENVIRONMENTS, KEY_STATUSES, KeyEnvironment, KeyStatus } from './keys.constants';

/** Answer of GET /key-info (enterprise plan). Never contains the key itself, only its prefix and last four. */
export class KeyInfoResponseDto {
  @ApiProperty()
  id!: string;

  @ApiProperty({ type: String, nullable: true })
  name!: string | null;

  @ApiProperty({ example: 'sift-prod-' })
  prefix!: string;

  @ApiProperty({ example: 'a1b2' })
  last_four!: string;

  @ApiProperty({ enum: KEY_ENVIRONMENTS })
  environment!: KeyEnvironment;

  @ApiProperty({ enum: KEY_STATUSES })
  status!: KeyStatus;

  @ApiProperty({ type: Number, nullable: true, description: 'null when the key has no own limit.' })
  credit_limit!: number | null;

  @ApiProperty({ description: 'Credits used by this key in the current billing period.' })
  usage!: number;

  @ApiProperty({ description: 'ISO 8601 date-time.' })
  created_at!: string;

  @ApiProperty({ type: String, nullable: true, description: 'ISO 8601 date-time; null while active.' })
  deactivated_at!: string | null;

  @ApiProperty({ type: String, nullable: true })
  project_id!: string | null;
}
