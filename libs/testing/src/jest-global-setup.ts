// Runs once before the integration suite: the test database exists and carries every migration.
// Global setup runs outside Jest's module mapper, so the @sift/persistence alias cannot resolve here.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { applyMigrations, ensureDatabaseExists } from '../../persistence/src/migrations';

export default async function globalSetup(): Promise<void> {
  const databaseUrl = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/sift_test';
  await ensureDatabaseExists(databaseUrl);
  await applyMigrations(databaseUrl);
}
