export const RESEARCH_MODELS = ['mini', 'pro', 'auto'] as const;
export type ResearchModel = (typeof RESEARCH_MODELS)[number];

/** Size targets, not hard caps. */
export const RESEARCH_OUTPUT_LENGTHS = ['short', 'standard', 'long'] as const;
export type ResearchOutputLength = (typeof RESEARCH_OUTPUT_LENGTHS)[number];

export const CITATION_FORMATS = ['numbered', 'mla', 'apa', 'chicago'] as const;
export type CitationFormat = (typeof CITATION_FORMATS)[number];

/** A research task is queued, then worked on, then ends completed or failed. */
export const RESEARCH_STATUSES = ['pending', 'in_progress', 'completed', 'failed'] as const;
export type ResearchStatus = (typeof RESEARCH_STATUSES)[number];

export const RESEARCH_LIMITS = { includeDomains: 20, excludeDomains: 20 } as const;
