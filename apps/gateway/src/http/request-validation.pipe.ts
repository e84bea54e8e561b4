import { ValidationPipe } from '@nestjs/common';
import { ValidationFailedError } from './validation-failed.error';

/**
 * The one body validation every entry point uses: the global pipe of the HTTP routes and the MCP tool calls, so a
 * tool argument is refused exactly as the same field in a REST body.
 */
export function createRequestValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    // Unknown fields (real clients send extras such as api_key) are dropped, never passed on.
    whitelist: true,
    forbidNonWhitelisted: false,
    exceptionFactory: (errors) => ValidationFailedError.fromErrors(errors),
  });
}
