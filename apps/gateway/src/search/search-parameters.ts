import {
  normalizeTimeRange,
  SearchAutoParametersDto,
  SearchDepth,
  SearchRequestDto,
  SearchTopic,
} from '@sift/api-contracts';
import { countryCodeOf, languageCodeOf } from '@sift/pages';
import { isValidDomainEntry } from '@sift/search-index';
import { ApiError } from '../http/api-error';
import { inferParameters, LongTimeRange } from './auto-parameters';

/** A search request after defaults, auto_parameters and the cross-field rules: what the pipeline runs. */
export interface ResolvedSearch {
  query: string;
  depth: SearchDepth;
  topic: SearchTopic;
  timeRange?: LongTimeRange;
  startDate?: string;
  endDate?: string;
  /** Pages stating no publish date under a date filter: kept (true), dropped (false), or each source's rule (absent). */
  includeUndated?: boolean;
  maxResults: number;
  chunksPerSource: number;
  includeImages: boolean;
  includeImageDescriptions: boolean;
  /** Absent when no answer was asked for. */
  answerDepth?: 'basic' | 'advanced';
  /** Absent when raw content was not asked for. */
  rawContentFormat?: 'markdown' | 'text';
  /** The answer's token budget (`max_tokens`); absent when none was asked for. */
  maxTokens?: number;
  includeDomains: string[];
  excludeDomains: string[];
  includeDomainsMode?: 'filter' | 'boost';
  country?: string;
  language?: string;
  filterByLanguage: boolean;
  exactMatch: boolean;
  safeSearch: boolean;
  includeFavicon: boolean;
  includeUsage: boolean;
  /** The caller's timeout in ms: how long the search may wait for page content. Absent: the depth's budget. */
  timeoutMs?: number;
  /** The echo of what auto_parameters chose; only when it was on. */
  autoParameters?: SearchAutoParametersDto;
  /** How the request was changed or narrowed before it ran (the response's warnings). */
  warnings: string[];
}

/**
 * Applies auto_parameters (explicit request fields win: `explicitFields` are the body's non-null keys, since the
 * DTO's defaults hide whether a value was sent) and the 400 rules, with messages naming the fields.
 */
export function resolveSearch(body: SearchRequestDto, explicitFields: ReadonlySet<string>, now: Date = new Date()): ResolvedSearch {
  let depth = body.search_depth;
  let topic = body.topic;
  let timeRange = body.time_range ? normalizeTimeRange(body.time_range) : undefined;
  let autoParameters: SearchAutoParametersDto | undefined;
  const warnings: string[] = [];
  if (body.auto_parameters) {
    const inferred = inferParameters(body.query, now);
    const choices: string[] = [];
    if (!explicitFields.has('search_depth')) {
      depth = inferred.searchDepth;
      choices.push(`search_depth to ${depth} (${inferred.reasons.searchDepth})`);
    }
    if (!explicitFields.has('topic')) {
      topic = inferred.topic;
      choices.push(`topic to ${topic} (${inferred.reasons.topic})`);
    }
    if (!explicitFields.has('time_range') && !explicitFields.has('start_date') && !explicitFields.has('end_date')) {
      timeRange = inferred.timeRange;
      if (timeRange) choices.push(`time_range to ${timeRange} (${inferred.reasons.timeRange})`);
    }
    autoParameters = { topic, search_depth: depth, ...(timeRange ? { time_range: timeRange } : {}) };
    if (choices.length > 0) warnings.push(`auto_parameters set ${choices.join(', ')}; send a field explicitly to override it.`);
  }

  const includeDomains = validDomainEntries('include_domains', body.include_domains, warnings);
  const excludeDomains = validDomainEntries('exclude_domains', body.exclude_domains, warnings);
  if (body.include_domains_mode && includeDomains.length === 0) {
    throw new ApiError(400, 'include_domains_mode requires include_domains: send at least one domain or leave include_domains_mode out.');
  }
  if (body.filter_by_language && !body.language) {
    throw new ApiError(400, 'filter_by_language requires language: name the language to keep (ISO 639-1 code or English name).');
  }
  if (body.language && !languageCodeOf(body.language)) {
    throw new ApiError(400, `language must be an ISO 639-1 code or an English language name; got "${body.language}".`);
  }
  if (body.country && !countryCodeOf(body.country)) {
    throw new ApiError(400, `country must be an English country name such as "united states", or an ISO 3166-1 code; got "${body.country}".`);
  }
  if (body.safe_search && (depth === 'fast' || depth === 'ultra-fast')) {
    throw new ApiError(400, `safe_search is not supported with search_depth ${depth}; use basic or advanced.`);
  }
  if (body.start_date && body.end_date && body.start_date > body.end_date) {
    throw new ApiError(400, 'start_date must not be after end_date.');
  }

  return {
    query: body.query.trim(),
    depth,
    topic,
    timeRange,
    startDate: body.start_date,
    endDate: body.end_date,
    ...(body.include_undated === undefined ? {} : { includeUndated: body.include_undated }),
    maxResults: body.max_results,
    chunksPerSource: body.chunks_per_source,
    includeImages: body.include_images,
    includeImageDescriptions: body.include_images && body.include_image_descriptions,
    answerDepth: body.include_answer === false ? undefined : body.include_answer === 'advanced' ? 'advanced' : 'basic',
    rawContentFormat: body.include_raw_content === false ? undefined : body.include_raw_content === 'text' ? 'text' : 'markdown',
    ...(body.max_tokens === undefined ? {} : { maxTokens: body.max_tokens }),
    includeDomains,
    excludeDomains,
    includeDomainsMode: includeDomains.length > 0 ? (body.include_domains_mode ?? 'filter') : undefined,
    // The spec boosts a country only for the general topic.
    country: topic === 'general' ? body.country : undefined,
    language: body.language,
    filterByLanguage: body.filter_by_language,
    exactMatch: body.exact_match,
    safeSearch: body.safe_search,
    includeFavicon: body.include_favicon,
    includeUsage: body.include_usage,
    timeoutMs: body.timeout === undefined ? undefined : Math.round(body.timeout * 1000),
    autoParameters,
    warnings,
  };
}

/**
 * The entries of include_domains or exclude_domains that can match a host (isValidDomainEntry); blank ones are left
 * out silently, as before. Some invalid: they are dropped with a warning. All invalid: 400 naming them, as Tavily
 * answers, rather than a search that quietly matches nothing (include) or excludes nothing (exclude).
 */
function validDomainEntries(field: 'include_domains' | 'exclude_domains', entries: readonly string[], warnings: string[]): string[] {
  const given = entries.map((domain) => domain.trim()).filter(Boolean);
  const invalid = given.filter((domain) => !isValidDomainEntry(domain));
  if (invalid.length === 0) return given;
  const named = `[${invalid.map((domain) => `'${domain}'`).join(', ')}]`;
  const rule = "Domains must have a valid suffix (e.g., 'example.com' instead of 'example').";
  if (invalid.length === given.length) throw new ApiError(400, `All domains in ${field} are invalid: ${named}. ${rule}`);
  warnings.push(
    `${field}: ${invalid.length === 1 ? '1 invalid entry was' : `${invalid.length} invalid entries were`} dropped: ${named}; ` +
      `searched with the other ${given.length - invalid.length}. ${rule}`,
  );
  return given.filter((domain) => isValidDomainEntry(domain));
}
