import { randomBytes } from 'node:crypto';
import { type AppProcess, startAppProcess } from './app-process';

export interface WorkerProcess extends AppProcess {
  queuePrefix: string;
  /** `http://127.0.0.1:<port>` of the worker's /health and /metrics, the port it bound and logged. */
  healthUrl: string;
}

/**
 * Starts a worker app (`apps/<name>/src/main.ts`) as its own process, the way `npm start` does, on the test
 * database and Redis index, and resolves once it logs that it consumes its queue. Its health port is the one the
 * system gave it (port 0) and read from that line: a port picked free beforehand can be taken, by another process's
 * outgoing connection, before the worker binds it.
 */
export async function startWorkerProcess(app: 'extractor-worker' | 'crawler-worker' | 'research-worker', env: Record<string, string> = {}): Promise<WorkerProcess> {
  const queuePrefix = env.QUEUE_PREFIX ?? `test-${randomBytes(4).toString('hex')}`;
  const worker = await startAppProcess(
    `apps/${app}/src/main.ts`,
    // The "worker started" line this waits for, and the lines tests follow, are at level info.
    { QUEUE_PREFIX: queuePrefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32', EXTRACTOR_PORT: '0', CRAWLER_PORT: '0', RESEARCH_PORT: '0', SIFT_LOG_LEVEL: 'log', ...env },
    /worker started.*\n/,
  );
  const startedLine = worker.output().split('\n').find((line) => /worker started/.test(line)) ?? '';
  const { port } = JSON.parse(startedLine.slice(startedLine.indexOf('{'))) as { port: number };
  return { queuePrefix, healthUrl: `http://127.0.0.1:${port}`, ...worker };
}
