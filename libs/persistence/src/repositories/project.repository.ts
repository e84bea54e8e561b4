import type { PrismaClient } from '../generated/prisma/client';

export interface ProjectRecord {
  id: string;
  accountId: string;
  externalId: string;
  name: string | null;
  createdAt: Date;
}

/** Projects named by callers through X-Project-ID, scoped to the account. */
export class ProjectRepository {
  constructor(private readonly prisma: PrismaClient) {}

  findByExternalId(accountId: string, externalId: string): Promise<ProjectRecord | null> {
    return this.prisma.project.findUnique({ where: { accountId_externalId: { accountId, externalId } } });
  }

  /** The first request that names a project creates it; concurrent first requests meet on the unique key. */
  findOrCreate(accountId: string, externalId: string): Promise<ProjectRecord> {
    return this.prisma.project.upsert({
      where: { accountId_externalId: { accountId, externalId } },
      create: { accountId, externalId },
      update: {},
    });
  }

  list(accountId: string): Promise<ProjectRecord[]> {
    return this.prisma.project.findMany({ where: { accountId }, orderBy: { createdAt: 'asc' } });
  }
}
