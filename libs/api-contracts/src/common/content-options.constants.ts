/** Extraction depth shared by extract and crawl: advanced gets tables and embedded content at more latency. */
export const EXTRACT_DEPTHS = ['basic', 'advanced'] as const;
export type ExtractDepth = (typeof EXTRACT_DEPTHS)[number];

/** Output format of page content shared by extract and crawl. */
export const CONTENT_FORMATS = ['markdown', 'text'] as const;
export type ContentFormat = (typeof CONTENT_FORMATS)[number];

/** Bounds and default of `chunks_per_source` (extract, crawl, search). */
export const CHUNKS_PER_SOURCE = { min: 1, max: 5, default: 3 } as const;
