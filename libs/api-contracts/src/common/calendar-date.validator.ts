import { ValidationOptions, registerDecorator } from 'class-validator';

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)?$/;

/** True for a real day written `YYYY-MM-DD` (rejects 2024-02-30, which a regular expression alone accepts). */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = CALENDAR_DATE.exec(value);
  if (!match) return false;
  return isExistingDay(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** True for `YYYY-MM-DD` or an ISO 8601 date-time such as `2025-01-31T12:00:00Z`. */
export function isCalendarDateOrDateTime(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  if (isCalendarDate(value)) return true;
  const match = DATE_TIME.exec(value);
  if (!match) return false;
  return isExistingDay(Number(match[1]), Number(match[2]), Number(match[3]));
}

function isExistingDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export function IsCalendarDate(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCalendarDate',
      target: target.constructor,
      propertyName: propertyName.toString(),
      options: { message: '$property must be a date in the format YYYY-MM-DD', ...options },
      validator: { validate: (value: unknown) => isCalendarDate(value) },
    });
}

export function IsCalendarDateOrDateTime(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCalendarDateOrDateTime',
      target: target.constructor,
      propertyName: propertyName.toString(),
      options: { message: '$property must be a date (YYYY-MM-DD) or an ISO 8601 date-time', ...options },
      validator: { validate: (value: unknown) => isCalendarDateOrDateTime(value) },
    });
}
