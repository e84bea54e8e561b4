import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FailedResultDto } from '../common/failed-result.dto';
import { TokenBudgetDto } from '../common/token-budget.dto';
import { UsageCreditsDto } from '../common/usage-credits.dto';
import { SiteTraversalFailedResultsField, SiteTraversalWarningsField } from '../map/site-traversal-response.decorator';

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

  @SiteTraversalFailedResultsField()
  failed_results?: FailedResultDto[];

  @SiteTraversalWarningsField()
  warnings?: string[];

  @ApiPropertyOptional({ type: TokenBudgetDto, description: 'Only when max_tokens is set: the budget, the tokens returned and whether text was cut.' })
  token_budget?: TokenBudgetDto;
}
