import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { ImageResultDto } from './image-result.dto';
import { PUBLISHED_DATE_SOURCES, PublishedDateSource } from './search.constants';

@ApiExtraModels(ImageResultDto)
export class SearchResultDto {
  @ApiProperty({ description: 'Identifier usable in feedback as a used_ids entry or urls_scores[].id.' })
  id!: string;

  @ApiProperty()
  title!: string;

  @ApiProperty()
  url!: string;

  @ApiProperty({ description: 'Most query-related content: chunks of at most 500 characters joined by [...].' })
  content!: string;

  @ApiProperty({ description: 'Relevance score.', example: 0.87 })
  score!: number;

  @ApiPropertyOptional({ description: 'Cleaned page content; only when include_raw_content is set.' })
  raw_content?: string;

  @ApiPropertyOptional({ description: 'Only when topic is news.' })
  published_date?: string;

  @ApiPropertyOptional({
    enum: PUBLISHED_DATE_SOURCES,
    description:
      "With published_date: where the date comes from. page_metadata: the page's own markup (article:published_time, " +
      "JSON-LD datePublished, <time>); import: the operator's import file; upstream: the web search engine's listing.",
  })
  published_date_source?: PublishedDateSource;

  @ApiPropertyOptional({ description: 'Only when include_favicon is true and a favicon was found.' })
  favicon?: string;

  @ApiPropertyOptional({
    description: 'Images of this source; only when include_images is true. Image results when include_image_descriptions is true.',
    oneOf: [{ type: 'array', items: { type: 'string' } }, { type: 'array', items: { $ref: getSchemaPath(ImageResultDto) } }],
  })
  images?: string[] | ImageResultDto[];
}
