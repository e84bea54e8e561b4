import { HttpException } from '@nestjs/common';

/** An error answered in the spec's shape: `{"detail": {"error": "..."}}` with the documented status. */
export class ApiError extends HttpException {
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super({ detail: { error: message } }, status);
    this.headers = headers;
  }

  readonly headers: Record<string, string>;
}

/** A dependency (Redis: queues and rate limits) is down: fail fast and say when to retry. */
export class ServiceUnavailableError extends ApiError {
  constructor(what: string, retryAfterSeconds = 5) {
    super(503, `Service temporarily unavailable: ${what}. Retry after ${retryAfterSeconds} seconds.`, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** One way to continue after the keyless budget is spent, as official clients read it (`type` names the path). */
export interface KeylessNextAction {
  type: string;
  details: string;
  retry_after_seconds?: number;
}

/** Keyless budget exhausted: the keyless envelope tells the caller, in plain language, how to continue. */
export class KeylessLimitError extends HttpException {
  /** `otherActions`: further ways to continue this deployment offers (x402 pay-per-request when it is on). */
  constructor(
    readonly retryAfterSeconds: number,
    otherActions: KeylessNextAction[] = [],
  ) {
    super(
      {
        error: {
          code: 'keyless_rate_limited',
          message:
            `The free keyless budget for your address is used up. Try again in ${retryAfterSeconds} seconds, ` +
            'or continue without waiting by sending an API key: Authorization: Bearer <your key>.',
          retry_after_seconds: retryAfterSeconds,
          next_actions: [
            {
              type: 'signup',
              details:
                'Get an API key (self-hosted: npm run admin -- keys create --account <name> --plan researcher) and send it as "Authorization: Bearer <key>".',
            },
            { type: 'retry_later', details: `Wait ${retryAfterSeconds} seconds and retry in keyless mode.`, retry_after_seconds: retryAfterSeconds },
            ...otherActions,
          ],
        },
      },
      429,
    );
  }
}

export const UNAUTHORIZED_MESSAGE = 'Unauthorized: missing or invalid API key.';
