import type { ResearchSource } from '@sift/queue-contracts';

/** A page the report may draw on, in the order the pipeline ranked it. */
export interface SourcePage {
  source: ResearchSource;
  content: string;
  /** The plan's queries that found it. */
  queries: string[];
  /** On one of include_domains. */
  preferred: boolean;
  /** The passages the operator's reranker chose for a model to read; unset: the page's best chunks by their words. */
  excerpt?: string;
}
