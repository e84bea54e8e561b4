/** The spec's feedback limit, checked by the body parser before any JSON is parsed. */
export const FEEDBACK_MAX_BODY_BYTES = 262144;

/** Every other endpoint: generous enough for 20 URLs or 300 include_domains, small enough to refuse abuse. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
