import { ValidationOptions, registerDecorator } from 'class-validator';
import { FEEDBACK_LIMITS } from './feedback.constants';

/** A feedback score: a finite number, or a string of at most 64 characters (for example "thumbs_up"). */
export function isScoreValue(value: unknown): value is number | string {
  if (typeof value === 'number') return Number.isFinite(value);
  return typeof value === 'string' && value.length <= FEEDBACK_LIMITS.scoreValueCharacters;
}

export function IsScoreValue(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isScoreValue',
      target: target.constructor,
      propertyName: propertyName.toString(),
      options: { message: `$property must be a number or a string of at most ${FEEDBACK_LIMITS.scoreValueCharacters} characters`, ...options },
      validator: { validate: (value: unknown) => isScoreValue(value) },
    });
}
