// Runs once before the integration suite: the template test database exists and carries every migration; copies
// left by an interrupted run are dropped. Each test file then runs on a copy of its own (jest-env.ts).
// Global setup runs outside Jest's module mapper, so the @sift/persistence alias cannot resolve here.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { applyMigrations, ensureDatabaseExists } from '../../persistence/src/migrations';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { dropFileDatabases, templateUrl } = require('./test-databases.js') as { dropFileDatabases: () => void; templateUrl: () => string };

export default async function globalSetup(): Promise<void> {
  const databaseUrl = templateUrl();
  await ensureDatabaseExists(databaseUrl);
  await applyMigrations(databaseUrl);
  dropFileDatabases();
}
