import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, Max, Min } from 'class-validator';
import { CHUNKS_PER_SOURCE, CONTENT_FORMATS, ContentFormat, EXTRACT_DEPTHS, ExtractDepth } from '../common/content-options.constants';
import { NullAsDefault } from '../common/null-as-default.transform';
import { MaxTokensField } from '../common/token-budget.dto';
import { MapRequestDto } from '../map/map-request.dto';

/**
 * Body of POST /crawl: the traversal fields of map plus what to extract from each page reached.
 * A missing `url` is answered by the service with 400 "no starting url provided" (see MapRequestDto).
 */
export class CrawlRequestDto extends MapRequestDto {
  @ApiPropertyOptional({
    type: 'integer',
    description: 'Chunks (at most 500 characters) joined by [...] in raw_content; only when instructions is given.',
    minimum: CHUNKS_PER_SOURCE.min,
    maximum: CHUNKS_PER_SOURCE.max,
    default: CHUNKS_PER_SOURCE.default,
  })
  @NullAsDefault(CHUNKS_PER_SOURCE.default)
  @IsInt()
  @Min(CHUNKS_PER_SOURCE.min)
  @Max(CHUNKS_PER_SOURCE.max)
  chunks_per_source: number = CHUNKS_PER_SOURCE.default;

  @ApiPropertyOptional({ description: 'Add the images found on each page.', default: false })
  @NullAsDefault(false)
  @IsBoolean()
  include_images: boolean = false;

  @ApiPropertyOptional({ description: 'advanced gets tables and embedded content, with more latency (charged at the advanced extract rate).', enum: EXTRACT_DEPTHS, default: 'basic' })
  @NullAsDefault('basic')
  @IsIn(EXTRACT_DEPTHS)
  extract_depth: ExtractDepth = 'basic';

  @ApiPropertyOptional({ description: 'Format of raw_content: markdown, or plain text (may add latency).', enum: CONTENT_FORMATS, default: 'markdown' })
  @NullAsDefault('markdown')
  @IsIn(CONTENT_FORMATS)
  format: ContentFormat = 'markdown';

  @ApiPropertyOptional({ description: "Add each page's favicon URL.", default: false })
  @NullAsDefault(false)
  @IsBoolean()
  include_favicon: boolean = false;

  // Map's max_tokens keeps whole URLs; a crawl's cuts its pages' text.
  @MaxTokensField("the results' raw_content")
  override max_tokens?: number = undefined;
}

/** The request Swagger UI fills in: a small, shallow crawl without instructions, so it ends quickly and cheaply. */
export const CRAWL_REQUEST_EXAMPLE = { url: 'https://docs.python.org/3/tutorial/', max_depth: 1, limit: 10 } satisfies Partial<CrawlRequestDto>;
