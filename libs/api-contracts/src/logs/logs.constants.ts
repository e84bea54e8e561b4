/** Endpoints the logs filter accepts; anything else is a 400 answered by the service. */
export const LOG_ENDPOINTS = ['search', 'extract', 'map', 'crawl', 'research'] as const;
export type LogEndpoint = (typeof LOG_ENDPOINTS)[number];

export const LOGS_LIMITS = { limit: { min: 1, max: 10000, default: 10 } } as const;
