import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { JobQueue } from './job-queue';
import { createRedisConnection } from './redis-connection';
import { SleeperJob } from './testing/sleeper-job';
import { isAlive, repositoryRoot, sleeperWorkerCommand } from './testing/sleeper-process';

interface ChildSpec {
  name: string;
  command: string;
  args?: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}
interface SupervisorModule {
  supervise(options: {
    children: ChildSpec[];
    log?: (level: string, message: string, details?: Record<string, unknown>) => void;
    backoff?: { initialMs: number; maxMs: number; resetAfterMs: number };
    stopTimeoutMs?: number;
    output?: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };
  }): {
    stop(signal?: string): Promise<void>;
    state(): Array<{ name: string; pid?: number; restarts: number; running: boolean }>;
    failed: Promise<{ child: string; code: number }>;
  };
  restartDelayMs(consecutiveCrashes: number, backoff?: { initialMs: number; maxMs: number; resetAfterMs: number }): number;
}

// The supervisor of `npm start` is plain JavaScript in scripts/ (no Nx project, so no import path of its own);
// these tests run it against tiny children.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { supervise, restartDelayMs } = require(join(repositoryRoot, 'scripts', 'supervisor.js')) as SupervisorModule;

jest.setTimeout(60_000);

interface LogLine {
  level: string;
  message: string;
  details: Record<string, unknown>;
}

function capture() {
  const lines: LogLine[] = [];
  const text = { stdout: '', stderr: '' };
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on('data', (chunk: Buffer) => (text.stdout += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (text.stderr += chunk.toString()));
  return {
    lines,
    text,
    output: { stdout, stderr },
    log: (level: string, message: string, details: Record<string, unknown> = {}) => lines.push({ level, message, details }),
  };
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const startedAt = Date.now();
  while (!(await condition())) {
    if (Date.now() - startedAt > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Issue 16 item 9: one crashed child used to stop the whole stack; SIGTERM abandoned jobs and left orphans.
describe('the npm start supervisor', () => {
  it('doubles the back-off between consecutive crashes, up to its maximum', () => {
    const backoff = { initialMs: 100, maxMs: 1_000, resetAfterMs: 60_000 };
    expect([1, 2, 3, 4, 5, 6].map((crash) => restartDelayMs(crash, backoff))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
  });

  it('restarts a crashed child with back-off, logs it, and on stop leaves no process of the child behind', async () => {
    const logs = capture();
    // Each run starts a grandchild (as a worker starts Chromium), prints its id, and crashes.
    const script = `const c = require('node:child_process').spawn('sleep', ['30'], { stdio: 'ignore' }); console.log('grandchild ' + c.pid); setTimeout(() => process.exit(3), 200);`;
    const stack = supervise({
      children: [{ name: 'crasher', command: process.execPath, args: ['-e', script] }],
      log: logs.log,
      backoff: { initialMs: 100, maxMs: 1_000, resetAfterMs: 60_000 },
      stopTimeoutMs: 5_000,
      output: logs.output,
    });
    try {
      await until(() => stack.state()[0].restarts >= 3, 10_000);
      const restarts = logs.lines.filter((line) => line.message === 'crasher exited; restarting');
      expect(restarts.slice(0, 3).map((line) => [line.details.code, line.details.restartInMs])).toEqual([
        [3, 100],
        [3, 200],
        [3, 400],
      ]);
    } finally {
      await stack.stop('SIGTERM');
    }
    const grandchildren = [...logs.text.stdout.matchAll(/grandchild (\d+)/g)].map((match) => Number(match[1]));
    expect(grandchildren.length).toBeGreaterThanOrEqual(3);
    // SIGKILL is delivered asynchronously; give the kernel a moment before looking.
    await until(() => grandchildren.every((pid) => !isAlive(pid)), 2_000).catch(() => undefined);
    expect(grandchildren.filter(isAlive)).toEqual([]);
    expect(stack.state().every((child) => !child.running)).toBe(true);
  });

  it('stops the stack instead of restarting a worker whose health port is taken, with a line naming the setting', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '0.0.0.0', resolve));
    const port = (taken.address() as AddressInfo).port;
    const logs = capture();
    const { command, args } = sleeperWorkerCommand();
    const stack = supervise({
      children: [
        { name: 'sleeper', command, args, cwd: repositoryRoot, env: { ...process.env, HEALTH_PORT: String(port), QUEUE_PREFIX: `test-port-${randomUUID()}` } },
        { name: 'bystander', command: process.execPath, args: ['-e', 'setInterval(() => undefined, 1000)'] },
      ],
      log: logs.log,
      backoff: { initialMs: 100, maxMs: 1_000, resetAfterMs: 60_000 },
      stopTimeoutMs: 5_000,
      output: logs.output,
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      const failure = await Promise.race([stack.failed, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 30_000)))]);
      expect(failure).toEqual({ child: 'sleeper', code: 78 });
      expect(logs.text.stdout + logs.text.stderr).toContain(`port ${port} (HEALTH_PORT) is already in use, by another Sift or another program: set HEALTH_PORT to a free port`);
      expect(logs.lines.filter((line) => line.message.includes('restarting'))).toEqual([]);
      expect(stack.state().every((child) => !child.running)).toBe(true);
    } finally {
      clearTimeout(timer);
      await stack.stop('SIGTERM');
      taken.close();
    }
  });

  describe('SIGTERM with jobs running and queued', () => {
    const prefix = `test-drain-${randomUUID()}`;
    let connection: Redis;

    beforeAll(() => {
      connection = createRedisConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/5');
    });
    afterAll(async () => {
      await connection.quit();
    });

    it('lets the running job finish, keeps the queued ones queued, and leaves no process', async () => {
      const logs = capture();
      const { command, args } = sleeperWorkerCommand();
      const stack = supervise({
        children: [{ name: 'sleeper', command, args, cwd: repositoryRoot, env: { ...process.env, SIFT_LOG_LEVEL: 'log', QUEUE_PREFIX: prefix } }],
        log: logs.log,
        stopTimeoutMs: 20_000,
        output: logs.output,
      });
      const jobQueue = new JobQueue({ connection, prefix });
      const queue = new Queue(SleeperJob.queue, { connection, prefix });
      try {
        await until(() => /worker started/.test(logs.text.stderr), 20_000);
        const jobs = [];
        for (const id of ['running', 'queued-1', 'queued-2']) jobs.push(await jobQueue.enqueue(SleeperJob, { id, ms: 1_500 }));
        await until(() => /"job started".*"running"/.test(logs.text.stderr), 10_000);
        const pid = stack.state()[0].pid as number;

        await stack.stop('SIGTERM');

        expect(isAlive(pid)).toBe(false);
        expect(logs.text.stderr).toMatch(/"job finished".*"running"/);
        expect(await jobs[0].getState()).toBe('completed');
        expect(await Promise.all(jobs.slice(1).map((job) => job.getState()))).toEqual(['waiting', 'waiting']);
        expect(stack.state()[0].restarts).toBe(0);
      } finally {
        await stack.stop('SIGTERM');
        await queue.obliterate({ force: true });
        await Promise.all([jobQueue.close(), queue.close()]);
      }
    });
  });
});
