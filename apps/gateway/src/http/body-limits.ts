import { describeUnsafeInput, findUnsafeInput } from '@sift/api-contracts';
import type { NextFunction, Request, Response } from 'express';
import { ValidationFailedError } from './validation-failed.error';

/** The spec's feedback limit, checked by the body parser before any JSON is parsed. */
export const FEEDBACK_MAX_BODY_BYTES = 262144;

/** Every other endpoint: generous enough for 20 URLs or 300 include_domains, small enough to refuse abuse. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * Runs right after the body parsers, before routing: a body or query string nested too deep, or carrying text
 * Postgres cannot store (NUL, unpaired surrogates), is refused as a validation error (400, feedback 422) before
 * class-transformer recurses into it or any service writes it.
 */
export function refuseUnsafeRequestInput(request: Request, _response: Response, next: NextFunction): void {
  const unsafe = findUnsafeInput(request.body) ?? findUnsafeInput(request.query);
  next(unsafe ? new ValidationFailedError([describeUnsafeInput(unsafe)]) : undefined);
}
