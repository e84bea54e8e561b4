import type { Type } from '@nestjs/common';
import { CrawlRequestDto, ExtractRequestDto, FeedbackRequestDto, LogEndpoint, MapRequestDto, SearchRequestDto } from '@sift/api-contracts';

/** The tools, named as Tavily's MCP server names them, so agents and prompts written for it work unchanged. */
export const TOOL_NAMES = ['tavily_search', 'tavily_extract', 'tavily_crawl', 'tavily_map', 'tavily_feedback'] as const;
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
  /**
   * Fields the tool marks required although the REST DTO does not: the DTO leaves `url` optional only so that a
   * missing one gets the spec's own 400 message, which the tool call still returns.
   */
  required?: string[];
}

export const TOOLS: Record<ToolName, ToolDefinition> = {
  tavily_search: {
    name: 'tavily_search',
    title: 'Web search',
    description:
      'Search the web for current information: news, facts, documentation, anything past your knowledge cutoff. Returns ranked ' +
      'results with title, URL, relevant content chunks and a score, optionally an answer, images and the cleaned page content. ' +
      '1 credit per call, 2 at search_depth advanced. Also available without an API key (keyless mode).',
    body: SearchRequestDto,
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
    path: '/map',
    logEndpoint: 'map',
    keyless: false,
    rateLimitCategory: 'crawl',
    required: ['url'],
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
