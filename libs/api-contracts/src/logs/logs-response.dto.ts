import { ApiProperty } from '@nestjs/swagger';
import { LOG_ENDPOINTS, LogEndpoint } from './logs.constants';

export class LogEntryDto {
  @ApiProperty({ description: 'ISO 8601 date-time.', example: '2025-06-01T12:00:00.000Z' })
  timestamp!: string;

  @ApiProperty({ enum: LOG_ENDPOINTS })
  endpoint!: LogEndpoint;

  @ApiProperty({ type: String, nullable: true, description: 'search_depth or extract_depth of the request; null when not applicable.', example: 'basic' })
  depth!: string | null;

  @ApiProperty({ description: 'Seconds.' })
  response_time!: number;

  @ApiProperty({ description: 'Credits charged.' })
  credits!: number;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Masked key that made the request (prefix and last four characters); null when no key is on record for the request.',
    example: 'sift-dev-…a1b2',
  })
  api_key!: string | null;

  @ApiProperty()
  request_id!: string;
}

export class LogsResponseDto {
  @ApiProperty({ type: [LogEntryDto], description: 'Newest first.' })
  logs!: LogEntryDto[];

  @ApiProperty({ description: 'Number of entries returned.' })
  count!: number;

  @ApiProperty({ description: 'Seconds.' })
  response_time!: number;

  @ApiProperty()
  request_id!: string;
}
