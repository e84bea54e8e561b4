import { pino, type Logger, stdTimeFunctions } from 'pino';
import { currentRequestId } from './request-scope';

export type WorkerLog = (level: 'info' | 'warn' | 'error', message: string, details?: Record<string, unknown>) => void;

/** SIFT_LOG_LEVEL speaks Nest's level names (the gateway's first logger); pino's equivalents. */
const PINO_LEVELS: Record<string, pino.Level> = { error: 'error', warn: 'warn', log: 'info', debug: 'debug', verbose: 'trace' };

/**
 * Credentials that could reach a log line by accident (a header object, a key payload) are replaced; bodies and
 * page content are never passed to the logger in the first place.
 */
const REDACTED_PATHS = ['authorization', '*.authorization', 'headers.authorization', '*.headers.authorization', 'api_key', '*.api_key', 'apiKey', '*.apiKey'];

/**
 * One JSON line per event on standard error: time (ISO), level, service, message, the current request id and the
 * event's details. Synchronous writes, so the last lines before a crash are not lost.
 */
export function createStructuredLogger(service: string, level = process.env.SIFT_LOG_LEVEL ?? 'log'): Logger {
  return pino(
    {
      level: PINO_LEVELS[level] ?? 'info',
      base: { service },
      messageKey: 'message',
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId === undefined ? {} : { requestId };
      },
      // The event's own fields keep their order and win over the scope's request id (a research line names its
      // task); the scope's id is appended when the event has none.
      mixinMergeStrategy: (event, scoped) => ({ ...event, ...scoped, ...event }),
    },
    pino.destination({ fd: 2, sync: true }),
  );
}

/** The workers' logging function, backed by the structured logger. */
export function workerLogger(service: string): WorkerLog {
  const logger = createStructuredLogger(service);
  return (level, message, details = {}) => logger[level]({ message, ...details });
}
