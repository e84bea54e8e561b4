import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UsageCreditsDto } from '../common/usage-credits.dto';

export class CrawlResultDto {
  @ApiProperty()
  url!: string;

  @ApiProperty({ description: 'Page content; with instructions, chunks joined as chunk [...] chunk.' })
  raw_content!: string;

  @ApiPropertyOptional({ description: 'Only when include_favicon is true.' })
  favicon?: string;

  @ApiPropertyOptional({ type: [String], description: 'Only when include_images is true.' })
  images?: string[];
}

export class CrawlResponseDto {
  @ApiProperty({ description: 'The root the crawl started from.' })
  base_url!: string;

  @ApiProperty({ type: [CrawlResultDto] })
  results!: CrawlResultDto[];

  @ApiProperty({ description: 'Seconds.' })
  response_time!: number;

  @ApiPropertyOptional({
    type: UsageCreditsDto,
    description: 'Only when include_usage is true; may be 0 while the extract and map billing thresholds are not reached.',
  })
  usage?: UsageCreditsDto;

  @ApiProperty()
  request_id!: string;
}
