import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { TokenBudgetDto } from '../common/token-budget.dto';
import { UsageCreditsDto } from '../common/usage-credits.dto';
import { ImageResultDto } from './image-result.dto';
import { SearchAutoParametersDto } from './search-auto-parameters.dto';
import { SearchResultDto } from './search-result.dto';

@ApiExtraModels(ImageResultDto)
export class SearchResponseDto {
  @ApiProperty()
  query!: string;

  @ApiProperty({ type: [SearchResultDto], description: 'Sorted by relevance.' })
  results!: SearchResultDto[];

  // Always present (empty unless include_images): @tavily/core calls `images.map` without checking.
  @ApiProperty({
    description: 'Empty unless include_images is true. Image results when include_image_descriptions is true.',
    oneOf: [{ type: 'array', items: { type: 'string' } }, { type: 'array', items: { $ref: getSchemaPath(ImageResultDto) } }],
  })
  images!: string[] | ImageResultDto[];

  @ApiPropertyOptional({ description: 'Only when include_answer is enabled.' })
  answer?: string;

  @ApiProperty({ description: 'Seconds.', example: 1.23 })
  response_time!: number;

  @ApiProperty({ description: 'Unique request identifier; feedback refers to it.' })
  request_id!: string;

  @ApiPropertyOptional({ type: SearchAutoParametersDto, description: 'Only when auto_parameters is true.' })
  auto_parameters?: SearchAutoParametersDto;

  @ApiPropertyOptional({ type: UsageCreditsDto, description: 'Only when include_usage is true.' })
  usage?: UsageCreditsDto;

  @ApiPropertyOptional({
    type: [String],
    description:
      'Only when something about the answer needs saying: the request was changed or narrowed (invalid include_domains or ' +
      'exclude_domains entries dropped, pages without a publish date kept or dropped by a date filter, what auto_parameters ' +
      'chose and why, a depth whose page fetches all failed), or results are shown by their snippet because their page did ' +
      'not answer within the latency budget.',
  })
  warnings?: string[];

  @ApiPropertyOptional({ type: TokenBudgetDto, description: 'Only when max_tokens is set: the budget, the tokens returned and whether text was cut.' })
  token_budget?: TokenBudgetDto;
}
