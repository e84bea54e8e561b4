import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

const repositoryRoot = resolve(__dirname, '..', '..', '..', '..');

export interface WorkerProcess {
  queuePrefix: string;
  output(): string;
  stop(): Promise<void>;
  /** SIGKILL: the crash a fault test simulates (no draining, the job's lock is left to expire). */
  kill(): Promise<void>;
}

/**
 * Starts a worker app (`apps/<name>/src/main.ts`) as its own process, the way `npm start` does, on the test
 * database and Redis index, and resolves once it logs that it consumes its queue.
 */
export async function startWorkerProcess(app: 'extractor-worker' | 'crawler-worker' | 'research-worker', env: Record<string, string> = {}): Promise<WorkerProcess> {
  const queuePrefix = env.QUEUE_PREFIX ?? `test-${randomBytes(4).toString('hex')}`;
  const child: ChildProcess = spawn(process.execPath, [resolve(repositoryRoot, 'scripts', 'run-ts.js'), `apps/${app}/src/main.ts`], {
    cwd: repositoryRoot,
    env: {
      ...process.env,
      QUEUE_PREFIX: queuePrefix,
      FETCH_ALLOW_CIDRS: '127.0.0.1/32',
      EXTRACTOR_PORT: '0',
      CRAWLER_PORT: '0',
      RESEARCH_PORT: '0',
      // The "worker started" line this waits for, and the lines tests follow, are at level info.
      SIFT_LOG_LEVEL: 'log',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const started = new Promise<void>((resolveStarted, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/worker started/.test(output)) resolveStarted();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${app} exited with ${code} before starting:\n${output}`)));
  });
  await started;
  return {
    queuePrefix,
    output: () => output,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
