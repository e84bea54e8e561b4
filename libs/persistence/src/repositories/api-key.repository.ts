import type { PrismaClient } from '../generated/prisma/client';
import { isUuid } from './uuid';
import type { PlanRecord } from './account.repository';

export type ApiKeyStatusName = 'active' | 'deactivated';

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  memberId: string | null;
  projectId: string | null;
  name: string;
  keyHash: string;
  prefix: string;
  lastFour: string;
  environment: string;
  status: ApiKeyStatusName;
  creditLimit: number | null;
  createdAt: Date;
  deactivatedAt: Date | null;
  /** null: never expires. */
  expiresAt: Date | null;
  /** The POST /generate-keys request that made the key; null for keys made otherwise (admin command line). */
  generationRequestId: string | null;
}

/** What authentication needs in one round trip: the key, its account, the account's plan and the key's project. */
export interface ApiKeyWithAccount extends ApiKeyRecord {
  project: { externalId: string } | null;
  account: {
    id: string;
    name: string;
    planId: string;
    paygoLimit: number | null;
    zeroDataRetention: boolean;
    plan: PlanRecord;
  };
}

export interface CreateApiKeyInput {
  name: string;
  keyHash: string;
  prefix: string;
  lastFour: string;
  environment: string;
  creditLimit?: number | null;
  memberId?: string | null;
  projectId?: string | null;
  expiresAt?: Date | null;
  generationRequestId?: string | null;
}

/** API keys are stored as SHA-256 hashes only; the raw key never reaches this repository. */
export class ApiKeyRepository {
  constructor(private readonly prisma: PrismaClient) {}

  create(accountId: string, input: CreateApiKeyInput): Promise<ApiKeyRecord> {
    return this.prisma.apiKey.create({
      data: {
        accountId,
        name: input.name,
        keyHash: input.keyHash,
        prefix: input.prefix,
        lastFour: input.lastFour,
        environment: input.environment,
        creditLimit: input.creditLimit ?? null,
        memberId: input.memberId ?? null,
        projectId: input.projectId ?? null,
        expiresAt: input.expiresAt ?? null,
        generationRequestId: input.generationRequestId ?? null,
      },
    });
  }

  /**
   * The one lookup that cannot be scoped by account: authentication starts from the key alone. It finds
   * keys in any status so the caller can tell "deactivated" from "unknown" in its own logic.
   */
  findByHash(keyHash: string): Promise<ApiKeyWithAccount | null> {
    return this.prisma.apiKey.findUnique({
      where: { keyHash },
      include: {
        account: {
          select: { id: true, name: true, planId: true, paygoLimit: true, zeroDataRetention: true, plan: true },
        },
        project: { select: { externalId: true } },
      },
    });
  }

  async findById(accountId: string, apiKeyId: string): Promise<ApiKeyRecord | null> {
    if (!isUuid(accountId) || !isUuid(apiKeyId)) return null;
    return this.prisma.apiKey.findFirst({ where: { id: apiKeyId, accountId } });
  }

  list(accountId: string): Promise<ApiKeyRecord[]> {
    return this.prisma.apiKey.findMany({ where: { accountId }, orderBy: { createdAt: 'asc' } });
  }

  /**
   * The keys one POST /generate-keys request made, oldest first. Generation request ids are request UUIDs, so
   * anything else finds nothing: in particular a missing id never becomes `generation_request_id IS NULL`, which
   * would be every key made otherwise (the operator's included).
   */
  listByGenerationRequest(accountId: string, generationRequestId: string): Promise<ApiKeyRecord[]> {
    if (!isUuid(accountId) || typeof generationRequestId !== 'string' || !isUuid(generationRequestId)) return Promise.resolve([]);
    return this.prisma.apiKey.findMany({ where: { accountId, generationRequestId }, orderBy: { createdAt: 'asc' } });
  }

  async updateCreditLimit(accountId: string, apiKeyId: string, creditLimit: number | null): Promise<boolean> {
    if (!isUuid(accountId) || !isUuid(apiKeyId)) return false;
    const updated = await this.prisma.apiKey.updateMany({ where: { id: apiKeyId, accountId }, data: { creditLimit } });
    return updated.count > 0;
  }

  /** Returns false when the key is not an active key of this account. */
  async deactivate(accountId: string, apiKeyId: string, at = new Date()): Promise<boolean> {
    if (!isUuid(accountId) || !isUuid(apiKeyId)) return false;
    const updated = await this.prisma.apiKey.updateMany({
      where: { id: apiKeyId, accountId, status: 'active' },
      data: { status: 'deactivated', deactivatedAt: at },
    });
    return updated.count > 0;
  }
}
