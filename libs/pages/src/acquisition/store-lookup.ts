import type { PageRepository } from '../page.repository';
import { type PageNeeds, someCopyMayAnswer, storedCopyAnswers } from '../stored-copy';
import type { PageOwner, StoredPage } from '../stored-page';
import { valueWithin } from './deadline';

/**
 * How long a lookup in the store (a stored copy, an unchanged page) may take before the page is fetched or made without
 * it: a working store answers in milliseconds, and one that stops answering (paused, or partitioned away with
 * connections open) must not hold the page, which the lookup only saves time on.
 */
export const STORE_LOOKUP_MS = 1_000;

/**
 * A lookup's answer, or null when the store failed (the error goes to `onError`) or has not answered within
 * `withinMs` (at most STORE_LOOKUP_MS): the store only saves time, and an unreachable or silent store must not fail
 * or hold what waits on it.
 */
export function withinStoreLookup<T>(lookup: Promise<T | null>, withinMs: number, onError: (error: unknown) => void): Promise<T | null> {
  const answered = lookup.catch((error: unknown) => {
    onError(error);
    return null;
  });
  return valueWithin(answered, Math.max(0, Math.min(STORE_LOOKUP_MS, withinMs)), null);
}

/** Which stored copies a request looks for: of these URLs, that this viewer may see, younger than maxAgeMs, holding what it needs. */
export interface StoredCopiesWanted {
  viewer: PageOwner;
  urls: readonly string[];
  maxAgeMs: number;
  needs: PageNeeds;
}

/**
 * The stored copies that answer a request (storedCopyAnswers), by URL as asked, from one statement for all its URLs,
 * bounded as withinStoreLookup (`withinMs`: what is left of the caller's deadline, when it is nearer than
 * STORE_LOOKUP_MS). None when no copy could answer (an advanced extraction: someCopyMayAnswer) or no age is allowed:
 * the store is then not asked.
 */
export async function storedCopiesAnswering(
  store: Pick<PageRepository, 'getFreshMany'>,
  wanted: StoredCopiesWanted,
  onError: (error: unknown) => void,
  withinMs: number = STORE_LOOKUP_MS,
): Promise<Map<string, StoredPage>> {
  const answering = new Map<string, StoredPage>();
  if (wanted.urls.length === 0 || wanted.maxAgeMs <= 0 || !someCopyMayAnswer(wanted.needs)) return answering;
  const copies = await withinStoreLookup(store.getFreshMany(wanted.viewer, wanted.urls, wanted.maxAgeMs), withinMs, onError);
  for (const [url, copy] of copies ?? []) if (storedCopyAnswers(copy, wanted.needs)) answering.set(url, copy);
  return answering;
}
