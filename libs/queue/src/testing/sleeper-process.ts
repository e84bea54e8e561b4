import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const repositoryRoot = resolve(__dirname, '..', '..', '..', '..');

/** The command that starts the sleeper worker (for a supervisor, or spawned directly). */
export function sleeperWorkerCommand(): { command: string; args: string[] } {
  return { command: process.execPath, args: [resolve(repositoryRoot, 'scripts', 'run-ts.js'), 'libs/queue/src/testing/sleeper-worker.main.ts'] };
}

export interface SleeperProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves when the output matches (or rejects after timeoutMs). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  kill(): Promise<void>;
}

export async function startSleeperWorker(env: Record<string, string>): Promise<SleeperProcess> {
  const { command, args } = sleeperWorkerCommand();
  const child = spawn(command, args, { cwd: repositoryRoot, env: { ...process.env, SIFT_LOG_LEVEL: 'log', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const waitFor = (pattern: RegExp, timeoutMs = 20_000) =>
    new Promise<void>((done, fail) => {
      const startedAt = Date.now();
      const poll = setInterval(() => {
        if (pattern.test(output)) {
          clearInterval(poll);
          done();
        } else if (Date.now() - startedAt > timeoutMs || child.exitCode !== null) {
          clearInterval(poll);
          fail(new Error(`sleeper worker output never matched ${pattern}:\n${output}`));
        }
      }, 50);
    });
  await waitFor(/worker started/);
  return {
    child,
    output: () => output,
    waitFor,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** True while a process with this id exists and is not a zombie waiting to be reaped. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}
