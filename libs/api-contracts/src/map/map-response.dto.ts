import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UsageCreditsDto } from '../common/usage-credits.dto';

export class MapResponseDto {
  @ApiProperty({ description: 'The root the map started from.' })
  base_url!: string;

  @ApiProperty({ type: [String], description: 'Discovered URLs.' })
  results!: string[];

  @ApiProperty({ description: 'Seconds.' })
  response_time!: number;

  @ApiProperty()
  request_id!: string;

  @ApiPropertyOptional({ type: UsageCreditsDto, description: 'Only when include_usage is true.' })
  usage?: UsageCreditsDto;
}
