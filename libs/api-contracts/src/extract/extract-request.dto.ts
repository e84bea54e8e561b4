import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsBoolean, IsIn, IsInt, IsNumber, IsString, Max, Min } from 'class-validator';
import { CHUNKS_PER_SOURCE, CONTENT_FORMATS, ContentFormat, EXTRACT_DEPTHS, ExtractDepth } from '../common/content-options.constants';
import { IsOptionalNotNull, NullAsOmitted } from '../common/is-optional-not-null.decorator';
import { NullAsDefault } from '../common/null-as-default.transform';
import { MaxTokensField } from '../common/token-budget.dto';
import { EXTRACT_LIMITS } from './extract.constants';

/** Body of POST /extract. Per-URL failures are reported in `failed_results`, never as an HTTP error. */
export class ExtractRequestDto {
  // Client libraries accept a single URL string; it is normalised to a one-element array here.
  @ApiProperty({
    description: 'URLs to extract (at most 20). A single string is accepted.',
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, maxItems: EXTRACT_LIMITS.urls }],
    example: ['https://en.wikipedia.org/wiki/Web_crawler'],
  })
  @Transform(({ value }) => (typeof value === 'string' ? [value] : value))
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(EXTRACT_LIMITS.urls)
  @IsString({ each: true })
  urls!: string[];

  @ApiPropertyOptional({ description: "Add the images found on each page.", default: false })
  @NullAsDefault(false)
  @IsBoolean()
  include_images: boolean = false;

  @ApiPropertyOptional({ description: 'advanced gets tables and embedded content, with more latency.', enum: EXTRACT_DEPTHS, default: 'basic' })
  @NullAsDefault('basic')
  @IsIn(EXTRACT_DEPTHS)
  extract_depth: ExtractDepth = 'basic';

  @ApiPropertyOptional({ description: 'Format of raw_content: markdown, or plain text (may add latency).', enum: CONTENT_FORMATS, default: 'markdown' })
  @NullAsDefault('markdown')
  @IsIn(CONTENT_FORMATS)
  format: ContentFormat = 'markdown';

  @ApiPropertyOptional({
    description: 'Seconds. When absent: 10 for basic, 30 for advanced.',
    minimum: EXTRACT_LIMITS.timeout.min,
    maximum: EXTRACT_LIMITS.timeout.max,
    example: 10,
  })
  @IsOptionalNotNull()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(EXTRACT_LIMITS.timeout.min)
  @Max(EXTRACT_LIMITS.timeout.max)
  timeout?: number;

  @ApiPropertyOptional({ description: "Add each page's favicon URL.", default: false })
  @NullAsDefault(false)
  @IsBoolean()
  include_favicon: boolean = false;

  @ApiPropertyOptional({ description: 'Credits may read 0 until 5 successful extractions are reached.', default: false })
  @NullAsDefault(false)
  @IsBoolean()
  include_usage: boolean = false;

  @ApiPropertyOptional({ description: 'Intent used to rerank chunks; raw_content then holds the top chunks joined by [...].' })
  @NullAsOmitted()
  @IsOptionalNotNull()
  @IsString()
  query?: string;

  @ApiPropertyOptional({
    type: 'integer',
    description: 'Only effective when query is given.',
    minimum: CHUNKS_PER_SOURCE.min,
    maximum: CHUNKS_PER_SOURCE.max,
    default: CHUNKS_PER_SOURCE.default,
  })
  @NullAsDefault(CHUNKS_PER_SOURCE.default)
  @IsInt()
  @Min(CHUNKS_PER_SOURCE.min)
  @Max(CHUNKS_PER_SOURCE.max)
  chunks_per_source: number = CHUNKS_PER_SOURCE.default;

  @MaxTokensField("the results' raw_content")
  max_tokens?: number;
}

/** The request Swagger UI fills in: one public page at basic depth (a fifth of a credit, charged per 5 pages). */
export const EXTRACT_REQUEST_EXAMPLE = { urls: ['https://en.wikipedia.org/wiki/Web_crawler'], extract_depth: 'basic', format: 'markdown' } satisfies Partial<ExtractRequestDto>;
