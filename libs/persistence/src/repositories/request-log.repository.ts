import type { PrismaClient } from '../generated/prisma/client';
import type { InputJsonValue } from '../generated/prisma/internal/prismaNamespace';

export interface RequestLogRecord {
  requestId: string;
  accountId: string;
  apiKeyId: string | null;
  projectId: string | null;
  endpoint: string;
  depth: string | null;
  statusCode: number;
  responseTime: number;
  credits: number;
  sessionId: string | null;
  humanIdHash: string | null;
  detail: unknown;
  createdAt: Date;
}

export interface NewRequestLog {
  requestId: string;
  apiKeyId?: string | null;
  projectId?: string | null;
  endpoint: string;
  depth?: string | null;
  statusCode: number;
  responseTime: number;
  credits?: number;
  sessionId?: string | null;
  humanIdHash?: string | null;
  detail?: InputJsonValue;
  /** When the request finished; defaults to the insert's time (set it when logs are written in batches). */
  createdAt?: Date;
}

export interface RequestLogQuery {
  apiKeyId?: string;
  endpoints?: string[];
  limit?: number;
  /** Entries at or after this instant. */
  since?: Date;
  /** Entries at or before this instant. */
  until?: Date;
  projectId?: string;
}

const logSelect = {
  requestId: true,
  accountId: true,
  apiKeyId: true,
  projectId: true,
  endpoint: true,
  depth: true,
  statusCode: true,
  responseTime: true,
  credits: true,
  sessionId: true,
  humanIdHash: true,
  detail: true,
  createdAt: true,
} as const;

/** One row per served request, newest first when read back. Scoped by accountId. */
export class RequestLogRepository {
  constructor(private readonly prisma: PrismaClient) {}

  create(accountId: string, log: NewRequestLog): Promise<RequestLogRecord> {
    return this.prisma.requestLog.create({ data: { ...log, accountId }, select: logSelect });
  }

  /** Many accounts' logs in one INSERT (the gateway batches them off the request path). */
  async createMany(logs: readonly { accountId: string; log: NewRequestLog }[]): Promise<number> {
    if (logs.length === 0) return 0;
    const result = await this.prisma.requestLog.createMany({ data: logs.map(({ accountId, log }) => ({ ...log, accountId })) });
    return result.count;
  }

  findByRequestId(accountId: string, requestId: string): Promise<RequestLogRecord | null> {
    return this.prisma.requestLog.findFirst({ where: { accountId, requestId }, select: logSelect });
  }

  list(accountId: string, query: RequestLogQuery = {}): Promise<RequestLogRecord[]> {
    return this.prisma.requestLog.findMany({
      where: {
        accountId,
        ...(query.apiKeyId ? { apiKeyId: query.apiKeyId } : {}),
        ...(query.endpoints?.length ? { endpoint: { in: query.endpoints } } : {}),
        ...(query.projectId ? { projectId: query.projectId } : {}),
        ...(query.since || query.until ? { createdAt: { ...(query.since ? { gte: query.since } : {}), ...(query.until ? { lte: query.until } : {}) } } : {}),
      },
      orderBy: { createdAt: 'desc' },
      take: query.limit ?? 100,
      select: logSelect,
    });
  }
}
