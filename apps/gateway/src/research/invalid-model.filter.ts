import { ArgumentsHost, Catch } from '@nestjs/common';
import { RESEARCH_MODELS } from '@sift/api-contracts';
import type { Request } from 'express';
import { ApiError } from '../http/api-error';
import { ApiExceptionFilter } from '../http/api-exception.filter';
import { ValidationFailedError } from '../http/validation-failed.error';

export const INVALID_MODEL = `Invalid model. Must be one of: ${RESEARCH_MODELS.join(', ')}`;

/**
 * A research body's validation failure as Tavily answers it when the model is unknown: its own sentence (clients
 * and agents match on it) instead of the generic validation message. Any other error is returned unchanged.
 */
export function withInvalidModelMessage(exception: unknown, body: unknown): unknown {
  const model = (body as { model?: unknown } | undefined)?.model;
  const invalidModel = model !== undefined && model !== null && !(RESEARCH_MODELS as readonly unknown[]).includes(model);
  return exception instanceof ValidationFailedError && invalidModel ? new ApiError(400, INVALID_MODEL) : exception;
}

/** POST /research answers an unknown model with Tavily's sentence; every other error leaves as everywhere else. */
@Catch()
export class InvalidResearchModelFilter extends ApiExceptionFilter {
  override catch(exception: unknown, host: ArgumentsHost): void {
    super.catch(withInvalidModelMessage(exception, host.switchToHttp().getRequest<Request>().body), host);
  }
}
