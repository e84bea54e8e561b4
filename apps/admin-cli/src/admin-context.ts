import {
  AccountRepository,
  ApiKeyRepository,
  MemberRepository,
  applyMigrations,
  createPrismaClient,
  ensureDatabaseExists,
  type PrismaClient,
} from '@sift/persistence';
import { TeamService } from '@sift/auth';
import { loadDatabaseUrl } from '@sift/config';
import { PageRepository } from '@sift/pages';
import { ChunkVectorStore } from '@sift/search-index';

export interface AdminContext {
  accounts: AccountRepository;
  apiKeys: ApiKeyRepository;
  members: MemberRepository;
  team: TeamService;
  pages: PageRepository;
  vectors: ChunkVectorStore;
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
    const members = new MemberRepository(prisma);
    return await work({
      accounts: new AccountRepository(prisma),
      apiKeys: new ApiKeyRepository(prisma),
      members,
      team: new TeamService(members),
      pages: new PageRepository(prisma),
      vectors: new ChunkVectorStore(prisma),
    });
  } finally {
    await prisma.$disconnect();
  }
}
