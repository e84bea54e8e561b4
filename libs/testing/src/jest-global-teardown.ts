// Runs once after the integration suite: the test files' copies of the test database are dropped.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { dropFileDatabases } = require('./test-databases.js') as { dropFileDatabases: () => void };

export default async function globalTeardown(): Promise<void> {
  dropFileDatabases();
}
