// Runs once before the integration suite: the test database exists and carries every migration.
import { applyMigrations, ensureDatabaseExists } from '../../persistence/src/migrations'; // global setup runs outside Jest's module mapper

export default async function globalSetup(): Promise<void> {
  const databaseUrl = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/sift_test';
  await ensureDatabaseExists(databaseUrl);
  await applyMigrations(databaseUrl);
}
