import type { Prisma, PrismaClient } from '@sift/persistence';

export type AdminOutcome = 'started' | 'succeeded' | 'failed';

export interface AdminAuditRecord {
  id: string;
  occurredAt: Date;
  finishedAt: Date | null;
  channel: string;
  actor: string;
  action: string;
  parameters: Record<string, unknown>;
  outcome: AdminOutcome;
  error: string | null;
  accountId: string | null;
  jobId: string | null;
  requestId: string | null;
  clientIp: string | null;
}

export interface NewAdminAuditEvent {
  channel: string;
  actor: string;
  action: string;
  parameters: Record<string, unknown>;
  accountId?: string | null;
  jobId?: string | null;
  requestId?: string | null;
  clientIp?: string | null;
}

export interface AdminAuditQuery {
  accountId?: string;
  /** An action (`keys.create`) or a family of them (`keys`). */
  action?: string;
  actor?: string;
  /** Only events older than this id: the next page after the last one read. */
  beforeId?: string;
  limit: number;
}

/** The admin audit trail: appended when an action starts, its outcome filled in when it ends. Never deleted here. */
export class AdminAuditRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async begin(event: NewAdminAuditEvent): Promise<string> {
    const row = await this.prisma.adminAuditEvent.create({
      data: {
        channel: event.channel,
        actor: event.actor,
        action: event.action,
        parameters: event.parameters as Prisma.InputJsonValue,
        outcome: 'started',
        accountId: event.accountId ?? null,
        jobId: event.jobId ?? null,
        requestId: event.requestId ?? null,
        clientIp: event.clientIp ?? null,
      },
      select: { id: true },
    });
    return row.id.toString();
  }

  async finish(id: string, outcome: Exclude<AdminOutcome, 'started'>, details: { error?: string; accountId?: string | null } = {}): Promise<void> {
    await this.prisma.adminAuditEvent.update({
      where: { id: BigInt(id) },
      data: {
        outcome,
        error: details.error ?? null,
        finishedAt: new Date(),
        ...(details.accountId ? { accountId: details.accountId } : {}),
      },
    });
  }

  /** The events of jobs that ended without their runner saying so (the gateway stopped): failed with the reason. */
  async failUnfinishedOfJobs(jobIds: string[], error: string): Promise<void> {
    if (jobIds.length === 0) return;
    await this.prisma.adminAuditEvent.updateMany({
      where: { jobId: { in: jobIds }, outcome: 'started' },
      data: { outcome: 'failed', error, finishedAt: new Date() },
    });
  }

  async list(query: AdminAuditQuery): Promise<AdminAuditRecord[]> {
    const rows = await this.prisma.adminAuditEvent.findMany({
      where: {
        ...(query.accountId ? { accountId: query.accountId } : {}),
        ...(query.actor ? { actor: query.actor } : {}),
        ...(query.action ? { OR: [{ action: query.action }, { action: { startsWith: `${query.action}.` } }] } : {}),
        ...(query.beforeId ? { id: { lt: BigInt(query.beforeId) } } : {}),
      },
      orderBy: { id: 'desc' },
      take: query.limit,
    });
    return rows.map((row) => ({
      ...row,
      id: row.id.toString(),
      parameters: row.parameters as Record<string, unknown>,
      outcome: row.outcome as AdminOutcome,
    }));
  }
}
