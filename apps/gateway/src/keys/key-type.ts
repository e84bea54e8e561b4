import type { KeyType } from '@sift/api-contracts';
import type { ApiKeyEnvironment } from '@sift/auth';

/** Tavily's key types are stored as the environment that picks the key's prefix and rate limit. */
const ENVIRONMENT_OF_KEY_TYPE: Record<KeyType, ApiKeyEnvironment> = { development: 'dev', production: 'prod' };

export function environmentOfKeyType(keyType: KeyType): ApiKeyEnvironment {
  return ENVIRONMENT_OF_KEY_TYPE[keyType];
}

export function keyTypeOfEnvironment(environment: string): KeyType {
  return environment === 'prod' ? 'production' : 'development';
}
