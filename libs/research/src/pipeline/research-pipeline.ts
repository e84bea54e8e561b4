import type { ResearchEvent, ResearchSource } from '@sift/queue-contracts';
import type { LlmClient } from '@sift/llm';
import type { ResearchSection } from './research-plan';

/** What the caller asked for (POST /research, validated by the gateway). */
export interface ResearchRequest {
  input: string;
  /** As requested; `auto` is resolved by the pipeline (see ResearchOutcome.resolvedModel). */
  model: 'mini' | 'pro' | 'auto';
  outputLength: 'short' | 'standard' | 'long';
  citationFormat: 'numbered' | 'mla' | 'apa' | 'chicago';
  /** Soft preference: pages of these domains (and their subdomains) rank first; others may still appear. */
  includeDomains: string[];
  /** Hard blocklist, downward only: a listed domain blocks its subdomains, never its parent. */
  excludeDomains: string[];
  /** A JSON Schema object (`properties`, optional `required`): the report is then an object that validates. */
  outputSchema?: Record<string, unknown>;
  /** The request's `max_tokens`: the report is cut to it when it is read (GET, stream), not when it is written. */
  maxTokens?: number;
}

/** How much work the task may do: derived from the credits reserved for it (see RESEARCH_CEILINGS in @sift/billing). */
export interface ResearchBudget {
  searches: number;
  /** Pages read through the extraction pipeline (pages whose full text the search already held are free). */
  extractions: number;
}

/** A search result as the pipeline sees it. */
export interface ResearchHit {
  url: string;
  title: string;
  /** The page's full text when the index holds it, else an upstream snippet (contentIsSnippet); a checkpoint keeps its start only. */
  content: string;
  contentIsSnippet: boolean;
  score: number;
  favicon?: string | null;
}

/** A page read in full (through the extractor worker and its cache, SSRF-safe egress). */
export interface ResearchPage {
  url: string;
  title: string;
  /** Markdown or text of the page's main content. */
  content: string;
  favicon?: string | null;
}

/** The outside world of the pipeline; the research worker provides the real ones, tests loopback ones. */
export interface ResearchDependencies {
  /** The same providers as POST /search (local index, SearXNG when configured). exclude_domains is applied again by the pipeline. */
  search(query: string, options: { maxResults: number; includeDomains: string[]; excludeDomains: string[]; deadlineMs: number }): Promise<ResearchHit[]>;
  /** Reads pages in full; a page that cannot be read is left out (never an exception for one page). */
  read(urls: string[], options: { deadlineMs: number }): Promise<ResearchPage[]>;
  /** Set when LLM_* is configured: the LLM plans and writes; unset: deterministic plan, extractive report. */
  llm?: LlmClient;
  /**
   * Set when RERANK_* is configured: the passages' positions, best first, by the operator's reranker (a cross-encoder
   * reading the query and each passage together); null when it failed or ran out of time, and the pipeline keeps its
   * own order.
   */
  rerank?(query: string, passages: string[], options: { deadlineMs: number }): Promise<number[] | null>;
}

/** Progress saved after each step, so a task retried after a worker crash resumes instead of starting over. */
export interface ResearchCheckpoint {
  resolvedModel?: 'mini' | 'pro';
  plan?: string[];
  /** The plan's sections (pro: subtopics), each with its queries; `plan` is their queries in order. */
  sections?: ResearchSection[];
  /** Searches done (query → hits), in order; each hit's content cut to a snippet (the pages quoted are in `pages`). */
  searches: { query: string; hits: ResearchHit[] }[];
  /** Pages read through the extractor, with their text, by URL (pages the index held in full are not kept: see readChosen). */
  pages: ResearchPage[];
  /** True once the pages were read: a resume does not read (nor charge) them again. */
  pagesRead?: boolean;
  /** Work done so far, for billing: counted once, whatever retries happen. */
  work: { searches: number; extractions: number };
}

export interface ResearchProgress {
  /** Publishes one stream event (also when nobody streams: a later stream replays them). */
  emit(event: ResearchEvent): Promise<void>;
  /** Saves progress in the task's row. */
  checkpoint(state: ResearchCheckpoint): Promise<void>;
  /**
   * Aborted when the task must wrap up, a little before its deadline: the pipeline stops the step it is in and writes
   * a partial report from what it has gathered (see ResearchOutcome.partial).
   */
  signal: AbortSignal;
  /** When the task must wrap up (the signal's time): no search or read waits past it. */
  deadlineAt: Date;
}

export interface ResearchOutcome {
  /** The report: text with citations and its source list, or an object validating against output_schema. */
  content: string | Record<string, unknown>;
  /** The sources the report cites, in citation order (numbered: source n is [n]). */
  sources: ResearchSource[];
  /** Which writer produced the report: the configured model, or the sources' own sentences. */
  mode: 'llm' | 'extractive';
  resolvedModel: 'mini' | 'pro';
  /** What to charge: searches at the search rate, extractions per 5 successes. */
  work: { searches: number; extractions: number };
  /**
   * Set when the task ran out of time and the report was written from what it had gathered by then, without a model:
   * why it is partial. A partial report is a completed task's, charged for the work it did.
   */
  partialReason?: string;
}
