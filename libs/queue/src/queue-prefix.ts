/**
 * Key prefix of every BullMQ structure in Redis. Producer and consumer must use the same one; tests pass a
 * unique prefix per file so parallel test files never see each other's jobs.
 */
export const DEFAULT_QUEUE_PREFIX = 'sift';
