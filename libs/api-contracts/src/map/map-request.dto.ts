import { ApiPropertyOptional } from '@nestjs/swagger';
import { MaxTokensField } from '../common/token-budget.dto';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsNotEmpty, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsOptionalNotNull, NullAsOmitted } from '../common/is-optional-not-null.decorator';
import { NullAsDefault } from '../common/null-as-default.transform';
import { SITE_TRAVERSAL_LIMITS } from './site-traversal.constants';

/**
 * Body of POST /map, and the traversal half of POST /crawl (CrawlRequestDto extends it).
 * `url` is optional here on purpose: the spec answers a missing url with 400 "no starting url provided"
 * (NO_STARTING_URL_MESSAGE), which the service returns, rather than a generic validation error; a `null` url is
 * no starting url either, so it keeps @IsOptional() and gets the same answer.
 */
export class MapRequestDto {
  @ApiPropertyOptional({ description: 'Root URL to start from. Required: missing gives 400 "no starting url provided".', example: 'https://docs.example.com' })
  @IsOptional()
  @IsString()
  url?: string;

  @ApiPropertyOptional({ description: 'Natural-language guidance for which pages to follow.' })
  @NullAsOmitted()
  @IsOptionalNotNull()
  @IsString()
  instructions?: string;

  @ApiPropertyOptional({ type: 'integer', description: 'How many links away from the root URL to go.', minimum: SITE_TRAVERSAL_LIMITS.maxDepth.min, maximum: SITE_TRAVERSAL_LIMITS.maxDepth.max, default: SITE_TRAVERSAL_LIMITS.maxDepth.default })
  @NullAsDefault(SITE_TRAVERSAL_LIMITS.maxDepth.default)
  @IsInt()
  @Min(SITE_TRAVERSAL_LIMITS.maxDepth.min)
  @Max(SITE_TRAVERSAL_LIMITS.maxDepth.max)
  max_depth: number = SITE_TRAVERSAL_LIMITS.maxDepth.default;

  @ApiPropertyOptional({
    type: 'integer',
    description: 'Links followed per page.',
    minimum: SITE_TRAVERSAL_LIMITS.maxBreadth.min,
    maximum: SITE_TRAVERSAL_LIMITS.maxBreadth.max,
    default: SITE_TRAVERSAL_LIMITS.maxBreadth.default,
  })
  @NullAsDefault(SITE_TRAVERSAL_LIMITS.maxBreadth.default)
  @IsInt()
  @Min(SITE_TRAVERSAL_LIMITS.maxBreadth.min)
  @Max(SITE_TRAVERSAL_LIMITS.maxBreadth.max)
  max_breadth: number = SITE_TRAVERSAL_LIMITS.maxBreadth.default;

  @ApiPropertyOptional({ type: 'integer', description: 'Total links processed before stopping.', minimum: SITE_TRAVERSAL_LIMITS.limit.min, default: SITE_TRAVERSAL_LIMITS.limit.default })
  @NullAsDefault(SITE_TRAVERSAL_LIMITS.limit.default)
  @IsInt()
  @Min(SITE_TRAVERSAL_LIMITS.limit.min)
  limit: number = SITE_TRAVERSAL_LIMITS.limit.default;

  @ApiPropertyOptional({ type: [String], nullable: true, default: null, maxItems: SITE_TRAVERSAL_LIMITS.patternsPerField, description: 'Regular expressions; keep only matching URL paths.', example: ['/docs/.*'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(SITE_TRAVERSAL_LIMITS.patternsPerField)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(SITE_TRAVERSAL_LIMITS.patternCharacters, { each: true })
  select_paths: string[] | null = null;

  @ApiPropertyOptional({ type: [String], nullable: true, default: null, maxItems: SITE_TRAVERSAL_LIMITS.patternsPerField, description: 'Regular expressions; keep only matching domains or subdomains.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(SITE_TRAVERSAL_LIMITS.patternsPerField)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(SITE_TRAVERSAL_LIMITS.patternCharacters, { each: true })
  select_domains: string[] | null = null;

  @ApiPropertyOptional({ type: [String], nullable: true, default: null, maxItems: SITE_TRAVERSAL_LIMITS.patternsPerField, description: 'Regular expressions; drop matching URL paths.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(SITE_TRAVERSAL_LIMITS.patternsPerField)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(SITE_TRAVERSAL_LIMITS.patternCharacters, { each: true })
  exclude_paths: string[] | null = null;

  @ApiPropertyOptional({ type: [String], nullable: true, default: null, maxItems: SITE_TRAVERSAL_LIMITS.patternsPerField, description: 'Regular expressions; drop matching domains or subdomains.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(SITE_TRAVERSAL_LIMITS.patternsPerField)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(SITE_TRAVERSAL_LIMITS.patternCharacters, { each: true })
  exclude_domains: string[] | null = null;

  @ApiPropertyOptional({ description: 'Include external-domain links in the final results.', default: true })
  @NullAsDefault(true)
  @IsBoolean()
  allow_external: boolean = true;

  @ApiPropertyOptional({
    description: 'Seconds.',
    minimum: SITE_TRAVERSAL_LIMITS.timeout.min,
    maximum: SITE_TRAVERSAL_LIMITS.timeout.max,
    default: SITE_TRAVERSAL_LIMITS.timeout.default,
  })
  @NullAsDefault(SITE_TRAVERSAL_LIMITS.timeout.default)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(SITE_TRAVERSAL_LIMITS.timeout.min)
  @Max(SITE_TRAVERSAL_LIMITS.timeout.max)
  timeout: number = SITE_TRAVERSAL_LIMITS.timeout.default;

  @ApiPropertyOptional({ description: 'Add the credits the request cost.', default: false })
  @NullAsDefault(false)
  @IsBoolean()
  include_usage: boolean = false;

  @MaxTokensField({
    description:
      'Return only as many of the URLs (results, in the order found) as fit this many tokens (o200k_base, the GPT-4o tokenizer), ' +
      'counted URL by URL; token_budget reports the count and a warning how many were left out. Absent: every URL (an MCP tool call gets its tool\'s default).',
  })
  max_tokens?: number;
}

/** The request Swagger UI fills in: a shallow map of one documentation site. */
export const MAP_REQUEST_EXAMPLE = { url: 'https://docs.python.org/3/tutorial/', max_depth: 1, limit: 50 } satisfies Partial<MapRequestDto>;
