import { ArgumentsHost, Catch } from '@nestjs/common';
import { RESEARCH_MODELS } from '@sift/api-contracts';
import type { Request } from 'express';
import { ApiError } from '../http/api-error';
import { ApiExceptionFilter } from '../http/api-exception.filter';
import { ValidationFailedError } from '../http/validation-failed.error';

export const INVALID_MODEL = `Invalid model. Must be one of: ${RESEARCH_MODELS.join(', ')}`;

/**
 * POST /research answers an unknown model with Tavily's own sentence (clients and agents match on it) instead of
 * the generic validation message; every other error leaves as everywhere else.
 */
@Catch()
export class InvalidResearchModelFilter extends ApiExceptionFilter {
  override catch(exception: unknown, host: ArgumentsHost): void {
    const model = (host.switchToHttp().getRequest<Request>().body as { model?: unknown } | undefined)?.model;
    const invalidModel = model !== undefined && model !== null && !(RESEARCH_MODELS as readonly unknown[]).includes(model);
    super.catch(exception instanceof ValidationFailedError && invalidModel ? new ApiError(400, INVALID_MODEL) : exception, host);
  }
}
