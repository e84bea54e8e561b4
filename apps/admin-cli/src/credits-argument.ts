import { InvalidArgumentError } from 'commander';

/** Commander argument parser for a whole, non-negative number of credits. */
export function parseCredits(value: string): number {
  const credits = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(credits)) {
    throw new InvalidArgumentError('Expected a whole number of credits.');
  }
  return credits;
}
