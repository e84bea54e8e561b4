import { BadRequestException, ValidationError } from '@nestjs/common';

/** Thrown by the global ValidationPipe; the exception filter decides 400 or 422 by route (feedback: 422). */
export class ValidationFailedError extends BadRequestException {
  constructor(readonly messages: string[]) {
    super(messages.join('; '));
  }

  static fromErrors(errors: ValidationError[]): ValidationFailedError {
    const messages: string[] = [];
    const walk = (error: ValidationError, path: string) => {
      const name = path ? `${path}.${error.property}` : error.property;
      for (const message of Object.values(error.constraints ?? {})) messages.push(message.replace(error.property, name));
      for (const child of error.children ?? []) walk(child, name);
    };
    errors.forEach((error) => walk(error, ''));
    return new ValidationFailedError(messages);
  }
}
