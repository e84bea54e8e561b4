import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/**
 * The body fields the caller actually sent (non-null). The validated DTO fills defaults, so it cannot tell an
 * explicit `search_depth: "basic"` from the default; auto_parameters must, because explicit values win.
 */
export const ExplicitFields = createParamDecorator((_data: unknown, host: ExecutionContext): ReadonlySet<string> => {
  const body: unknown = host.switchToHttp().getRequest<Request>().body;
  if (!body || typeof body !== 'object') return new Set();
  return new Set(Object.entries(body as Record<string, unknown>).filter(([, value]) => value !== null && value !== undefined).map(([name]) => name));
});
