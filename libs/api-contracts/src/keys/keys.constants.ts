/** Tavily's key types. A development key carries the development rate limit and the `sift-dev-` prefix. */
export const KEY_TYPES = ['development', 'production'] as const;
export type KeyType = (typeof KEY_TYPES)[number];

export const KEY_STATUSES = ['active', 'deactivated'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

/** What key-info and generate-keys answer in expires_at for a key without a ttl (Tavily's word for it). */
export const NEVER_EXPIRES = 'never';

/** Tavily's documented bounds for POST /generate-keys. */
export const KEY_MANAGEMENT_LIMITS = {
  count: { min: 1, max: 200, default: 1 },
  keyLimit: { min: 1, max: 100_000 },
  ttlHours: { min: 1, max: 8_760 },
  nameCharacters: 200,
  // One request deactivates at most as many keys as one generate-keys call can create.
  keysPerDeactivation: 200,
} as const;
