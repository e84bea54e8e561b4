import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FailedResultDto } from '../common/failed-result.dto';
import { TokenBudgetDto } from '../common/token-budget.dto';
import { UsageCreditsDto } from '../common/usage-credits.dto';
import { SiteTraversalFailedResultsField, SiteTraversalWarningsField } from './site-traversal-response.decorator';

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

  @SiteTraversalFailedResultsField()
  failed_results?: FailedResultDto[];

  @SiteTraversalWarningsField()
  warnings?: string[];

  @ApiPropertyOptional({ type: TokenBudgetDto, description: 'Only when max_tokens is set: the budget, the tokens of the URLs returned and whether some were left out.' })
  token_budget?: TokenBudgetDto;
}
