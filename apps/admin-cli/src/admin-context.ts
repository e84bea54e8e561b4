import { applyMigrations, createPrismaClient, ensureDatabaseExists, type PrismaClient } from '@sift/persistence';
import { commandLineActor, createAdminServices, type AdminActor, type AdminServices } from '@sift/admin';
import { loadDatabaseUrl } from '@sift/config';
import { PageRepository } from '@sift/pages';

export interface AdminContext extends AdminServices {
  /** Who the audit records: the user at this command line. */
  actor: AdminActor;
}

/**
 * Every command first brings the database up to date, so `npm run admin -- keys create ...` works on a fresh
 * machine before the server has ever started. Migration notes go to stderr: stdout belongs to the command.
 */
export async function withAdminContext<T>(work: (context: AdminContext) => Promise<T>, connections = 2): Promise<T> {
  const databaseUrl = loadDatabaseUrl();
  if (await ensureDatabaseExists(databaseUrl)) process.stderr.write('Created the database.\n');
  const migrations = await applyMigrations(databaseUrl);
  if (migrations.applied.length > 0) process.stderr.write(`Applied migrations: ${migrations.applied.join(', ')}\n`);
  const prisma: PrismaClient = createPrismaClient(databaseUrl, connections);
  try {
    return await work({ ...createAdminServices(prisma, new PageRepository(prisma)), actor: commandLineActor() });
  } finally {
    await prisma.$disconnect();
  }
}
