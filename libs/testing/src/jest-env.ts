// Integration tests run against a database of their own, next to the one `npm start` uses.
process.env.DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/sift_test';
process.env.REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/5';
process.env.SIFT_LOG_LEVEL = process.env.SIFT_LOG_LEVEL ?? 'error';
