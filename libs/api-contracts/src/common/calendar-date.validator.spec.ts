import { isCalendarDate, isCalendarDateOrDateTime } from './calendar-date.validator';

describe('calendar date checks', () => {
  it.each([
    ['2024-02-29', true],
    ['2025-02-29', false],
    ['2025-04-31', false],
    ['2025-00-10', false],
    ['25-01-01', false],
    ['2025-01-01T00:00:00Z', false],
  ])('isCalendarDate(%p) = %p', (value, expected) => {
    expect(isCalendarDate(value)).toBe(expected);
  });

  it.each([
    ['2025-01-01', true],
    ['2025-01-01T10:20', true],
    ['2025-01-01T10:20:30.123Z', true],
    ['2025-01-01T10:20:30-0530', true],
    ['2025-01-01T24:00:00Z', false],
    ['2025-02-30T10:00:00Z', false],
    ['2025-01-01 10:20:30', false],
  ])('isCalendarDateOrDateTime(%p) = %p', (value, expected) => {
    expect(isCalendarDateOrDateTime(value)).toBe(expected);
  });

  it('rejects non-strings', () => {
    expect(isCalendarDate(20250101)).toBe(false);
    expect(isCalendarDateOrDateTime(null)).toBe(false);
  });
});
