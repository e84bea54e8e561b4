import { ApiPropertyOptional } from '@nestjs/swagger';
import { SEARCH_DEPTHS, SEARCH_TOPICS, SearchDepth, SearchTopic, TIME_RANGES, TimeRange } from './search.constants';

/** The parameters auto_parameters chose, echoed back so the caller can see and pin them. */
export class SearchAutoParametersDto {
  @ApiPropertyOptional({ enum: SEARCH_TOPICS })
  topic?: SearchTopic;

  @ApiPropertyOptional({ enum: SEARCH_DEPTHS })
  search_depth?: SearchDepth;

  @ApiPropertyOptional({ enum: TIME_RANGES })
  time_range?: TimeRange;

  @ApiPropertyOptional()
  start_date?: string;

  @ApiPropertyOptional()
  end_date?: string;

  @ApiPropertyOptional({ type: [String] })
  include_domains?: string[];

  @ApiPropertyOptional({ type: [String] })
  exclude_domains?: string[];

  @ApiPropertyOptional()
  country?: string;

  @ApiPropertyOptional()
  include_images?: boolean;

  @ApiPropertyOptional()
  chunks_per_source?: number;
}
