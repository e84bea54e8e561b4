import type { PrismaClient } from '../generated/prisma/client';
import { queryRows } from '../prisma-client';
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

  /**
   * Many accounts' logs in one INSERT (the gateway batches them off the request path), as column arrays: Prisma's
   * createMany spent a visible share of the gateway's CPU serialising each row.
   */
  async createMany(logs: readonly { accountId: string; log: NewRequestLog }[]): Promise<number> {
    if (logs.length === 0) return 0;
    const column = <T>(pick: (entry: { accountId: string; log: NewRequestLog }) => T) => logs.map(pick);
    const rows = await queryRows<{ request_id: string }>(this.prisma, {
      name: 'sift_request_logs_insert',
      text: `INSERT INTO request_logs (request_id, account_id, api_key_id, project_id, endpoint, depth, status_code,
                                       response_time, credits, session_id, human_id_hash, detail, created_at)
             SELECT l.request_id, l.account_id, l.api_key_id, l.project_id, l.endpoint, l.depth, l.status_code,
                    l.response_time, l.credits, l.session_id, l.human_id_hash, l.detail, coalesce(l.created_at, now())
             FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::int[], $8::float8[],
                         $9::int[], $10::text[], $11::text[], $12::jsonb[], $13::timestamptz[])
                  AS l(request_id, account_id, api_key_id, project_id, endpoint, depth, status_code, response_time,
                       credits, session_id, human_id_hash, detail, created_at)
             RETURNING request_id`,
      values: [
        column(({ log }) => log.requestId),
        column(({ accountId }) => accountId),
        column(({ log }) => log.apiKeyId ?? null),
        column(({ log }) => log.projectId ?? null),
        column(({ log }) => log.endpoint),
        column(({ log }) => log.depth ?? null),
        column(({ log }) => log.statusCode),
        column(({ log }) => log.responseTime),
        column(({ log }) => log.credits ?? 0),
        column(({ log }) => log.sessionId ?? null),
        column(({ log }) => log.humanIdHash ?? null),
        column(({ log }) => (log.detail === undefined ? null : JSON.stringify(log.detail))),
        column(({ log }) => log.createdAt ?? null),
      ],
    });
    return rows.length;
  }

  /**
   * A request charged after its answer (a research task, settled by its worker when it completes): its row takes
   * the credits charged and adds `detail` to what it held. False when the row is not there (yet).
   */
  async recordLateCharge(accountId: string, requestId: string, credits: number, detail: Record<string, unknown>): Promise<boolean> {
    const rows = await queryRows<{ request_id: string }>(this.prisma, {
      name: 'sift_request_logs_late_charge',
      text: `UPDATE request_logs SET credits = $3, detail = coalesce(detail, '{}'::jsonb) || $4::jsonb
             WHERE request_id = $1 AND account_id = $2::uuid
             RETURNING request_id`,
      values: [requestId, accountId, credits, JSON.stringify(detail)],
    });
    return rows.length === 1;
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
