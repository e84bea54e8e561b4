// Offline equivalent of `prisma migrate deploy`: creates the database if missing, then applies
// prisma/migrations in order. Used by `npm start`, `npm test` and `npm run db:migrate`.
import { applyMigrations, ensureDatabaseExists } from '@sift/persistence';
import { loadDatabaseUrl } from '@sift/config';

async function main(): Promise<void> {
  const databaseUrl = loadDatabaseUrl();
  if (await ensureDatabaseExists(databaseUrl)) console.log(`created database ${new URL(databaseUrl).pathname.slice(1)}`);
  const { applied, alreadyApplied } = await applyMigrations(databaseUrl);
  console.log(`migrations: ${applied.length} applied, ${alreadyApplied.length} already applied`);
}

main().catch((error: Error) => {
  console.error(`migration failed: ${error.message}`);
  process.exit(1);
});
