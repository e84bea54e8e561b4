import { HttpException } from '@nestjs/common';
import { ApiError, KeylessLimitError, type KeylessNextAction } from '../http/api-error';
import type { Caller } from './request-context';

/**
 * The 429 a caller gets when a budget is spent: the key's message with Retry-After, or the keyless envelope. One
 * place, so an HTTP request refused by the guard and an MCP tool call refused inside a batch read the same.
 */
export function rateLimitRefusal(caller: Caller, retryAfterSeconds: number, keylessActions: KeylessNextAction[] = []): HttpException {
  if (caller.keyless) return new KeylessLimitError(retryAfterSeconds, keylessActions);
  return new ApiError(429, `Rate limit exceeded: too many requests for this API key. Retry after ${retryAfterSeconds} seconds.`, {
    'Retry-After': String(retryAfterSeconds),
  });
}
