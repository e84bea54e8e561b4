import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsNotEmpty, IsNumber, IsString, Max, Min } from 'class-validator';
import { IsCalendarDate } from '../common/calendar-date.validator';
import { MaxTokensField } from '../common/token-budget.dto';
import { IsOptionalNotNull, NullAsOmitted } from '../common/is-optional-not-null.decorator';
import { NullAsDefault } from '../common/null-as-default.transform';
import {
  INCLUDE_ANSWER_VALUES,
  INCLUDE_DOMAINS_MODES,
  INCLUDE_DOMAINS_MODE_ALIASES,
  INCLUDE_RAW_CONTENT_VALUES,
  IncludeAnswer,
  IncludeDomainsMode,
  IncludeRawContent,
  SEARCH_DEPTHS,
  SEARCH_LIMITS,
  SEARCH_TOPICS,
  SearchDepth,
  SearchTopic,
  TIME_RANGES,
  TimeRange,
} from './search.constants';

/**
 * Body of POST /search. Cross-field rules (include_domains_mode needs include_domains, filter_by_language
 * needs language: both 400) are checked by the service, which owns the error messages.
 */
export class SearchRequestDto {
  @ApiProperty({ description: 'The search query.', example: 'who won the 2024 Tour de France' })
  @IsString()
  @IsNotEmpty()
  query!: string;

  @ApiPropertyOptional({
    description:
      'Configure parameters from the query; explicit values override. Never sets include_answer, include_raw_content or max_results; may raise search_depth to advanced (2 credits) unless basic is set explicitly.',
    default: false,
  })
  @NullAsDefault(false)
  @IsBoolean()
  auto_parameters: boolean = false;

  @ApiPropertyOptional({ description: 'fast and ultra-fast are beta, latency-oriented. advanced costs 2 credits.', enum: SEARCH_DEPTHS, default: 'basic' })
  @NullAsDefault('basic')
  @IsIn(SEARCH_DEPTHS)
  search_depth: SearchDepth = 'basic';

  @ApiPropertyOptional({ description: 'Search category: news for current events, finance for markets and companies.', enum: SEARCH_TOPICS, default: 'general' })
  @NullAsDefault('general')
  @IsIn(SEARCH_TOPICS)
  topic: SearchTopic = 'general';

  @ApiPropertyOptional({ description: 'Only results published or updated within this range.', enum: TIME_RANGES })
  @NullAsOmitted()
  @IsOptionalNotNull()
  @IsIn(TIME_RANGES)
  time_range?: TimeRange;

  @ApiPropertyOptional({ description: 'Only results after this date (YYYY-MM-DD).', example: '2025-01-01' })
  @IsOptionalNotNull()
  @IsCalendarDate()
  start_date?: string;

  @ApiPropertyOptional({ description: 'Only results before this date (YYYY-MM-DD).', example: '2025-06-30' })
  @IsOptionalNotNull()
  @IsCalendarDate()
  end_date?: string;

  // Absent keeps each source's own rule (docs/search-filters.md): the store's pages without a publish date are
  // judged by when Sift fetched them, the web's are kept for time_range and dropped for start_date/end_date.
  @ApiPropertyOptional({
    description:
      'With time_range, start_date or end_date: what to do with pages that state no publish date. true keeps them all; ' +
      'false drops them all. Absent: stored pages are judged by the date Sift fetched them, web results are kept for ' +
      'time_range and dropped for start_date/end_date. A warning says what happened.',
  })
  @IsOptionalNotNull()
  @IsBoolean()
  include_undated?: boolean;

  @ApiPropertyOptional({ type: 'integer', description: 'How many results to return.', minimum: SEARCH_LIMITS.maxResults.min, maximum: SEARCH_LIMITS.maxResults.max, default: SEARCH_LIMITS.maxResults.default })
  @NullAsDefault(SEARCH_LIMITS.maxResults.default)
  @IsInt()
  @Min(SEARCH_LIMITS.maxResults.min)
  @Max(SEARCH_LIMITS.maxResults.max)
  max_results: number = SEARCH_LIMITS.maxResults.default;

  // The spec leaves the upper bound open; 5 is the bound extract and crawl document.
  @ApiPropertyOptional({
    type: 'integer',
    description: 'Chunks (at most 500 characters each) joined by [...] in content. Applies at basic, advanced and fast.',
    minimum: SEARCH_LIMITS.chunksPerSource.min,
    maximum: SEARCH_LIMITS.chunksPerSource.max,
    default: SEARCH_LIMITS.chunksPerSource.default,
  })
  @NullAsDefault(SEARCH_LIMITS.chunksPerSource.default)
  @IsInt()
  @Min(SEARCH_LIMITS.chunksPerSource.min)
  @Max(SEARCH_LIMITS.chunksPerSource.max)
  chunks_per_source: number = SEARCH_LIMITS.chunksPerSource.default;

  @ApiPropertyOptional({ description: 'Adds top-level images and per-result images.', default: false })
  @NullAsDefault(false)
  @IsBoolean()
  include_images: boolean = false;

  @ApiPropertyOptional({ description: 'Images become image results with an LLM-written description.', default: false })
  @NullAsDefault(false)
  @IsBoolean()
  include_image_descriptions: boolean = false;

  @ApiPropertyOptional({
    description: 'true or basic: quick answer; advanced: more detailed answer.',
    oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['basic', 'advanced'] }],
    default: false,
  })
  @NullAsDefault(false)
  @IsIn(INCLUDE_ANSWER_VALUES)
  include_answer: IncludeAnswer = false;

  @ApiPropertyOptional({
    description: 'true or markdown: cleaned page content as markdown; text: plain text (may add latency).',
    oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['markdown', 'text'] }],
    default: false,
  })
  @NullAsDefault(false)
  @IsIn(INCLUDE_RAW_CONTENT_VALUES)
  include_raw_content: IncludeRawContent = false;

  @ApiPropertyOptional({ type: [String], description: 'Only (or, with include_domains_mode boost, preferably) results from these domains.', maxItems: SEARCH_LIMITS.includeDomains, default: [], example: ['wikipedia.org'] })
  @NullAsDefault([])
  @IsArray()
  @ArrayMaxSize(SEARCH_LIMITS.includeDomains)
  @IsString({ each: true })
  include_domains: string[] = [];

  @ApiPropertyOptional({ type: [String], description: 'No results from these domains.', maxItems: SEARCH_LIMITS.excludeDomains, default: [] })
  @NullAsDefault([])
  @IsArray()
  @ArrayMaxSize(SEARCH_LIMITS.excludeDomains)
  @IsString({ each: true })
  exclude_domains: string[] = [];

  @ApiPropertyOptional({
    description: 'filter: only the listed domains; boost: also search the rest of the web. Requires include_domains. The client spellings restrict and prefer are accepted as filter and boost.',
    enum: INCLUDE_DOMAINS_MODES,
  })
  @Transform(({ value }) => (typeof value === 'string' && value in INCLUDE_DOMAINS_MODE_ALIASES ? INCLUDE_DOMAINS_MODE_ALIASES[value] : value))
  @IsOptionalNotNull()
  @IsIn(INCLUDE_DOMAINS_MODES)
  include_domains_mode?: IncludeDomainsMode;

  // Tavily clients send lowercase English country names; the gateway answers 400 for a name no country has.
  @ApiPropertyOptional({
    description: 'Boost results from this country (only with topic general): an English country name, or an ISO 3166-1 alpha-2 or alpha-3 code.',
    example: 'united states',
  })
  @IsOptionalNotNull()
  @IsString()
  country?: string;

  @ApiPropertyOptional({ description: 'ISO 639-1 code or English language name; boosts matching results.', example: 'en' })
  @IsOptionalNotNull()
  @IsString()
  language?: string;

  @ApiPropertyOptional({ description: 'Drop results not in language. Requires language.', default: false })
  @NullAsDefault(false)
  @IsBoolean()
  filter_by_language: boolean = false;

  @ApiPropertyOptional({ description: 'Only results containing the exact quoted phrases of the query.', default: false })
  @NullAsDefault(false)
  @IsBoolean()
  exact_match: boolean = false;

  @ApiPropertyOptional({ description: 'Drop adult and unsafe content; not supported with fast or ultra-fast.', default: false })
  @NullAsDefault(false)
  @IsBoolean()
  safe_search: boolean = false;

  @ApiPropertyOptional({ description: "Add each result's favicon URL.", default: false })
  @NullAsDefault(false)
  @IsBoolean()
  include_favicon: boolean = false;

  @ApiPropertyOptional({ description: 'Add the credits the request cost.', default: false })
  @NullAsDefault(false)
  @IsBoolean()
  include_usage: boolean = false;

  @ApiPropertyOptional({
    description:
      "Seconds the search may wait for page content (basic and advanced). When absent, the depth's latency budget " +
      '(basic 0.95 s, advanced 2.2 s): a page still loading then is shown by its search-engine snippet, with a warning, ' +
      'and is fetched into the store for the next request.',
    minimum: SEARCH_LIMITS.timeout.min,
    maximum: SEARCH_LIMITS.timeout.max,
    example: 5,
  })
  @IsOptionalNotNull()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(SEARCH_LIMITS.timeout.min)
  @Max(SEARCH_LIMITS.timeout.max)
  timeout?: number;
  @MaxTokensField("the results' content and raw_content")
  max_tokens?: number;
}

/**
 * The request Swagger UI fills in: answered from the local index at basic depth (1 credit). No dates or time range,
 * which could exclude every page and still charge.
 */
export const SEARCH_REQUEST_EXAMPLE = { query: 'how does a web crawler work', search_depth: 'basic', max_results: 5 } satisfies Partial<SearchRequestDto>;
