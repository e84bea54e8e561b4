import { createHash, randomBytes } from 'node:crypto';

export type ApiKeyEnvironment = 'dev' | 'prod';

export interface GeneratedApiKey {
  /** Shown to the user once; never stored or logged. */
  apiKey: string;
  keyHash: string;
  /** `sift-dev-` / `sift-prod-` plus the first four random characters, safe to display. */
  prefix: string;
  lastFour: string;
}

/** 32 random bytes = 256 bits, twice the 128 bits the key format promises. */
const RANDOM_BYTES = 32;
const VISIBLE_RANDOM_CHARACTERS = 4;
const API_KEY_PATTERN = /^sift-(dev|prod)-[A-Za-z0-9_-]{43}$/;

export function generateApiKey(environment: ApiKeyEnvironment): GeneratedApiKey {
  const secret = randomBytes(RANDOM_BYTES).toString('base64url');
  const apiKey = `sift-${environment}-${secret}`;
  return {
    apiKey,
    keyHash: hashApiKey(apiKey),
    prefix: `sift-${environment}-${secret.slice(0, VISIBLE_RANDOM_CHARACTERS)}`,
    lastFour: apiKey.slice(-4),
  };
}

/** Hex SHA-256. A plain hash is enough here: the input carries 256 random bits, so there is nothing to brute-force. */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

/** Cheap shape check before touching the database, so garbage bearer tokens cost no query. */
export function looksLikeApiKey(candidate: string): boolean {
  return API_KEY_PATTERN.test(candidate);
}

export function environmentOfApiKey(apiKey: string): ApiKeyEnvironment | null {
  const match = API_KEY_PATTERN.exec(apiKey);
  return match ? (match[1] as ApiKeyEnvironment) : null;
}
