/** Route metadata: which of the route's requests may be paid per request (set by @PayPerRequest). */
export const PAY_PER_REQUEST = 'sift:pay-per-request';

/** Which requests of a route may be paid per request, decided on the body as received (before validation). */
export type PayableRequest = (body: unknown) => boolean;

/** x402 pays for advanced search only (spec Authentication 6): a search asking for the advanced depth. */
export const asksForAdvancedDepth: PayableRequest = (body) => (body as { search_depth?: unknown } | undefined)?.search_depth === 'advanced';
