import type { WebPage } from '@sift/content-extraction';
import { KEYLESS_ACCOUNT_ID, OPERATOR_ACCOUNT_ID } from '@sift/queue-contracts';

export type DocumentSource = 'extract' | 'crawl' | 'import';

/**
 * A page as the store holds it: the WebPage (url and finalUrl normalised, language as its ISO 639-1 code, country
 * hints with the TLD's country, favicon the conventional one: the store keeps no icon) plus what the store adds.
 */
export interface StoredPage {
  id: string;
  fetchedAt: Date;
  source: DocumentSource;
  page: WebPage;
}

/**
 * On whose behalf a page is stored: an account (whose zero data retention the store honours), a caller without
 * a key, or the operator (imports, admin crawls).
 */
export type PageOwner = { accountId: string } | 'keyless' | 'operator';

/** The owner a job's accountId names ("keyless" and the admin CLI's id are not accounts). */
export function pageOwnerOf(accountId: string): PageOwner {
  if (accountId === KEYLESS_ACCOUNT_ID) return 'keyless';
  if (accountId === OPERATOR_ACCOUNT_ID) return 'operator';
  return { accountId };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The account whose private pages `owner` may see besides the shared ones; null: shared pages only. */
export function viewerAccountOf(owner: PageOwner | undefined): string | null {
  return typeof owner === 'object' && UUID.test(owner.accountId) ? owner.accountId : null;
}
