import { randomBytes } from 'node:crypto';
import { type AppProcess, startAppProcess } from './app-process';

export interface WorkerProcess extends AppProcess {
  queuePrefix: string;
}

/**
 * Starts a worker app (`apps/<name>/src/main.ts`) as its own process, the way `npm start` does, on the test
 * database and Redis index, and resolves once it logs that it consumes its queue.
 */
export async function startWorkerProcess(app: 'extractor-worker' | 'crawler-worker' | 'research-worker', env: Record<string, string> = {}): Promise<WorkerProcess> {
  const queuePrefix = env.QUEUE_PREFIX ?? `test-${randomBytes(4).toString('hex')}`;
  const worker = await startAppProcess(
    `apps/${app}/src/main.ts`,
    // The "worker started" line this waits for, and the lines tests follow, are at level info.
    { QUEUE_PREFIX: queuePrefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32', EXTRACTOR_PORT: '0', CRAWLER_PORT: '0', RESEARCH_PORT: '0', SIFT_LOG_LEVEL: 'log', ...env },
    /worker started/,
  );
  return { queuePrefix, ...worker };
}
