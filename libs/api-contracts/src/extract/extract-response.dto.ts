import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FailedResultDto } from '../common/failed-result.dto';
import { TokenBudgetDto } from '../common/token-budget.dto';
import { UsageCreditsDto } from '../common/usage-credits.dto';

export class ExtractResultDto {
  @ApiProperty()
  url!: string;

  // @tavily/core reads `title` (string or null) from every result.
  @ApiProperty({ type: String, nullable: true, description: 'Page title when one was found.' })
  title!: string | null;

  @ApiProperty({ description: 'Cleaned content; with query, the top-ranked chunks joined by [...].' })
  raw_content!: string;

  @ApiPropertyOptional({ type: [String], description: 'Only when include_images is true.' })
  images?: string[];

  @ApiPropertyOptional({ description: 'Only when include_favicon is true.' })
  favicon?: string;
}

export class ExtractResponseDto {
  @ApiProperty({ type: [ExtractResultDto] })
  results!: ExtractResultDto[];

  @ApiProperty({ type: [FailedResultDto], description: 'URLs that could not be processed; never charged.' })
  failed_results!: FailedResultDto[];

  @ApiProperty({ description: 'Seconds.' })
  response_time!: number;

  @ApiProperty()
  request_id!: string;

  @ApiPropertyOptional({ type: UsageCreditsDto, description: 'Only when include_usage is true.' })
  usage?: UsageCreditsDto;

  @ApiPropertyOptional({ type: [String], description: 'Only when something about the answer needs saying, e.g. that every URL failed and which may be retried.' })
  warnings?: string[];

  @ApiPropertyOptional({ type: TokenBudgetDto, description: 'Only when max_tokens is set: the budget, the tokens returned and whether text was cut.' })
  token_budget?: TokenBudgetDto;
}
