import { SetMetadata } from '@nestjs/common';

export const ROUTE_ACCESS = 'sift:route-access';

/** Default-deny: every route needs an API key unless it says otherwise here. */
export type RouteAccess = 'public' | 'keyless-allowed';

/** No authentication at all (health, metrics, docs). */
export const Public = () => SetMetadata(ROUTE_ACCESS, 'public' satisfies RouteAccess);

/** Search and extract: an API key, or keyless mode with the keyless header and its own per-IP budget. */
export const KeylessAllowed = () => SetMetadata(ROUTE_ACCESS, 'keyless-allowed' satisfies RouteAccess);

export const RATE_LIMIT_CATEGORY = 'sift:rate-limit-category';

/** Which per-key budget a route spends: the default per-minute budget, or a stricter one (crawl, research, usage). */
export const RateLimitCategory = (category: 'default' | 'crawl' | 'research' | 'usage') =>
  SetMetadata(RATE_LIMIT_CATEGORY, category);

export const RATE_LIMITED_PER_TOOL_CALL = 'sift:rate-limited-per-tool-call';

/**
 * The guard authenticates but spends no budget: the handler spends one unit per tool call it runs (MCP), so a
 * spent budget reaches the caller as that call's tool error, not as an HTTP 429 for the whole message.
 */
export const RateLimitedPerToolCall = () => SetMetadata(RATE_LIMITED_PER_TOOL_CALL, true);
