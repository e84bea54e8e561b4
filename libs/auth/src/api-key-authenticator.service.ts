import { timingSafeEqual } from 'node:crypto';
import type { ApiKeyRepository } from '@sift/persistence';
import { hashApiKey, looksLikeApiKey, type ApiKeyEnvironment } from './api-key-format';

export interface AuthenticatedKey {
  apiKeyId: string;
  accountId: string;
  accountName: string;
  /** The team member the key was issued to; null for account-level keys. */
  memberId: string | null;
  environment: ApiKeyEnvironment;
  /** Per-key monthly credit limit; null = only the account's limits apply. */
  creditLimit: number | null;
  planId: string;
  planPaid: boolean;
  /** The plan's monthly allowance; null = no monthly figure (enterprise). */
  planMonthlyCredits: number | null;
  /** The account's pay-as-you-go ceiling; null = none (off, or uncapped on the paygo plan). */
  paygoLimit: number | null;
  zeroDataRetention: boolean;
  /** The project the key was created for, if any (X-Project-ID can still name another one per request). */
  projectId: string | null;
  /** That project's caller-facing id (the X-Project-ID value its usage is recorded under). */
  projectExternalId: string | null;
  /** When the key stops authenticating (ttl_hours at creation); null = never. Caches must not outlive it. */
  expiresAt: Date | null;
}

export class ApiKeyAuthenticator {
  constructor(private readonly apiKeys: ApiKeyRepository) {}

  /** Returns null for a missing, malformed, unknown, deactivated or expired key; the caller answers 401 for all of them alike. */
  async authenticate(rawKey: string | null | undefined): Promise<AuthenticatedKey | null> {
    if (!rawKey || !looksLikeApiKey(rawKey)) return null;
    const presentedHash = hashApiKey(rawKey);
    const key = await this.apiKeys.findByHash(presentedHash);
    if (!key) return null;
    // The lookup is by an index on the hash; comparing the stored hash again in constant time keeps the final
    // decision free of byte-by-byte timing, whatever the database's comparison does.
    const stored = Buffer.from(key.keyHash, 'hex');
    const presented = Buffer.from(presentedHash, 'hex');
    if (stored.length !== presented.length || !timingSafeEqual(stored, presented)) return null;
    if (key.status !== 'active' || hasExpired(key.expiresAt)) return null;
    return {
      apiKeyId: key.id,
      accountId: key.accountId,
      accountName: key.account.name,
      memberId: key.memberId,
      environment: key.environment === 'prod' ? 'prod' : 'dev',
      creditLimit: key.creditLimit,
      planId: key.account.planId,
      planPaid: key.account.plan.paid,
      planMonthlyCredits: key.account.plan.monthlyCredits,
      paygoLimit: key.account.paygoLimit,
      zeroDataRetention: key.account.zeroDataRetention,
      projectId: key.projectId,
      projectExternalId: key.project?.externalId ?? null,
      expiresAt: key.expiresAt,
    };
  }
}

/** Expiry is read against Date.now() (not the database clock) so the gateway's key cache and this check agree. */
export function hasExpired(expiresAt: Date | null, now = Date.now()): boolean {
  return expiresAt !== null && expiresAt.getTime() <= now;
}
