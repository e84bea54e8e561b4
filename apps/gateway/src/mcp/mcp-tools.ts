import type { Type } from '@nestjs/common';
import {
  CrawlRequestDto,
  ExtractRequestDto,
  FeedbackRequestDto,
  LogEndpoint,
  MapRequestDto,
  ResearchRequestDto,
  SearchRequestDto,
} from '@sift/api-contracts';
import { GetResearchToolArgumentsDto } from './get-research-tool-arguments.dto';
import { ResearchToolOptionsDto } from './research-tool-options.dto';

/** The tools, named as Tavily's MCP server names them, so agents and prompts written for it work unchanged. */
export const TOOL_NAMES = ['tavily_search', 'tavily_extract', 'tavily_crawl', 'tavily_map', 'tavily_research', 'tavily_get_research', 'tavily_feedback'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/** What a tool is beside its REST twin: the twin's body, route, log name, keyless access and rate-limit budget. */
export interface ToolDefinition {
  name: ToolName;
  title: string;
  /** Written for the model choosing the tool: when to use it, what it costs, what it returns. */
  description: string;
  /** The REST body the arguments are validated as; the input schema is this DTO's schema. */
  body: Type<object>;
  /** The REST route, whose error answers the tool's errors repeat. */
  path: `/${string}`;
  /** The name the call is logged under in POST /logs, as its REST twin is; null for an unlogged twin (feedback). */
  logEndpoint: LogEndpoint | null;
  keyless: boolean;
  rateLimitCategory: 'default' | 'crawl' | 'research';
  /** Tool-only arguments, validated as this DTO beside the body; its fields join the input schema. */
  options?: Type<object>;
  /** Body fields a tool call cannot use (a call cannot stream): left out of the input schema, ignored if sent. */
  omitted?: string[];
  /** For body fields the DTO documents without a description: a model picks arguments by their descriptions. */
  descriptions?: Record<string, string>;
  /**
   * The schema's required fields where they differ from the REST DTO's: crawl and map require `url`, which their DTO
   * leaves optional only so that a missing one gets the spec's own 400 message (the tool call still returns it);
   * research requires nothing, as `request_id` can stand in for `input`.
   */
  required?: string[];
  /** The `max_tokens` a call that sets none gets: a tool result lands in the model's context whole. */
  defaultMaxTokens?: number;
  /**
   * The default bounds the answer the call returns, not the REST body (research: the task is stored and may be read
   * again under another budget, so only a max_tokens the caller set is stored with it).
   */
  defaultBoundsAnswer?: boolean;
}

/**
 * The default token budget of the search, extract, crawl and research tools: a tenth of a 128k-token context window, about what
 * a search with raw content or a few extracted pages needs, leaving the model room for its own work.
 */
export const TOOL_DEFAULT_MAX_TOKENS = 8_000;

export const TOOLS: Record<ToolName, ToolDefinition> = {
  tavily_search: {
    name: 'tavily_search',
    title: 'Web search',
    description:
      'Search the web for current information: news, facts, documentation, anything past your knowledge cutoff. Returns ranked ' +
      'results with title, URL, relevant content chunks and a score, optionally an answer, images and the cleaned page content. ' +
      '1 credit per call, 2 at search_depth advanced. Also available without an API key (keyless mode).',
    body: SearchRequestDto,
    defaultMaxTokens: TOOL_DEFAULT_MAX_TOKENS,
    path: '/search',
    logEndpoint: 'search',
    keyless: true,
    rateLimitCategory: 'default',
  },
  tavily_extract: {
    name: 'tavily_extract',
    title: 'Extract web pages',
    description:
      'Get the cleaned content of up to 20 URLs as markdown or text. Use extract_depth advanced for tables, embedded content and ' +
      'pages that need a browser; give a query to keep only the most relevant chunks of each page. Pages that fail are listed in ' +
      'failed_results and not charged. 1 credit per 5 pages extracted (2 at advanced). Also available without an API key.',
    body: ExtractRequestDto,
    defaultMaxTokens: TOOL_DEFAULT_MAX_TOKENS,
    path: '/extract',
    logEndpoint: 'extract',
    keyless: true,
    rateLimitCategory: 'default',
  },
  tavily_crawl: {
    name: 'tavily_crawl',
    title: 'Crawl a website',
    description:
      'Crawl a site breadth-first from a root URL and extract the content of the pages reached, bounded by max_depth, max_breadth ' +
      'and limit. Steer it with natural-language instructions and with path or domain regular expressions. Use it to read a ' +
      'documentation site or a section of one. Charged per page mapped and extracted. Needs an API key.',
    body: CrawlRequestDto,
    defaultMaxTokens: TOOL_DEFAULT_MAX_TOKENS,
    path: '/crawl',
    logEndpoint: 'crawl',
    keyless: false,
    rateLimitCategory: 'crawl',
    required: ['url'],
  },
  tavily_map: {
    name: 'tavily_map',
    title: 'Map a website',
    description:
      "List a site's URLs from a root URL (links, sitemaps) without extracting their content: the quick way to see a site's " +
      'structure before extracting or crawling part of it. Charged per 10 pages mapped. Needs an API key.',
    body: MapRequestDto,
    defaultMaxTokens: TOOL_DEFAULT_MAX_TOKENS,
    path: '/map',
    logEndpoint: 'map',
    keyless: false,
    rateLimitCategory: 'crawl',
    required: ['url'],
  },
  tavily_research: {
    name: 'tavily_research',
    title: 'Research a question',
    description:
      'Research a question in depth: plans searches, reads the sources and writes a report citing them. Use it for questions ' +
      'that need several sources; use tavily_search for a quick fact. A task takes from seconds to minutes: the call waits up ' +
      'to timeout seconds (default 50) and returns the report and its sources, or, if the task is still running, its ' +
      'request_id: call again with that request_id to keep waiting. Charged when the task completes, for the searches made ' +
      'and the pages read; a failed task costs nothing. Needs an API key.',
    body: ResearchRequestDto,
    options: ResearchToolOptionsDto,
    defaultMaxTokens: TOOL_DEFAULT_MAX_TOKENS,
    defaultBoundsAnswer: true,
    omitted: ['stream'],
    descriptions: {
      model: 'mini: a quick, narrow answer from few sources; pro: a broad, multi-angle report (slower, more credits); auto: chosen from the question.',
      citation_format: 'How the report cites its sources: numbered ([1]), mla, apa or chicago.',
    },
    path: '/research',
    logEndpoint: 'research',
    keyless: false,
    rateLimitCategory: 'research',
    required: [],
  },
  tavily_get_research: {
    name: 'tavily_get_research',
    title: 'Get a research report',
    description:
      'Get the report of a research task tavily_research started and stopped waiting for: give its request_id. Waits up to ' +
      'timeout seconds (default 50) and returns the report and its sources, the task\'s error if it failed, or its status if ' +
      'it is still running (call again to keep waiting). Free: the task is charged once, when it completes. Needs an API key.',
    body: GetResearchToolArgumentsDto,
    defaultMaxTokens: TOOL_DEFAULT_MAX_TOKENS,
    defaultBoundsAnswer: true,
    // GET /research/{request_id}'s twin: the general budget, not logged (the task's own row is).
    path: '/research/{request_id}',
    logEndpoint: null,
    keyless: false,
    rateLimitCategory: 'default',
  },
  tavily_feedback: {
    name: 'tavily_feedback',
    title: 'Rate results',
    description:
      'Tell the service how useful the results of an earlier call were: give its request_id (or the session id), an overall ' +
      'agent_score, and optionally per-URL scores, the URLs or ids you used and the answer you delivered. Free; beta. Needs an API key.',
    body: FeedbackRequestDto,
    path: '/feedback',
    logEndpoint: null,
    keyless: false,
    rateLimitCategory: 'default',
  },
};

/**
 * A research call given the request_id of an earlier one: GET /research/{request_id}'s twin (the general budget,
 * not logged) that then waits for the task like the call that started it.
 */
export const RESUMED_RESEARCH: ToolDefinition = { ...TOOLS.tavily_research, path: '/research/{request_id}', logEndpoint: null, rateLimitCategory: 'default' };
