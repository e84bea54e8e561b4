// Integration tests run against a database of their own, next to the one `npm start` uses: a fresh copy of the
// migrated test database for each test file (see test-databases.js).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createFileDatabase } = require('./test-databases.js') as { createFileDatabase: () => string };

process.env.DATABASE_URL = createFileDatabase();
process.env.REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/5';
process.env.SIFT_LOG_LEVEL = process.env.SIFT_LOG_LEVEL ?? 'error';
