import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

const repositoryRoot = resolve(__dirname, '..', '..', '..', '..');

export interface AppProcess {
  output(): string;
  stop(): Promise<void>;
  /** SIGKILL: the crash a fault test simulates (no draining, the job's lock is left to expire). */
  kill(): Promise<void>;
}

/** Tells when a started process is ready: a line it prints, or a probe (e.g. an HTTP health check) that turns true. */
export type Readiness = RegExp | (() => Promise<boolean>);

const READINESS_PROBE_INTERVAL_MS = 100;

/**
 * Starts an app's entry point (`apps/<name>/src/main.ts`) as its own process, the way `npm start` does, with the
 * test's environment on top of this one, and resolves once it is ready; rejects with its output if it exits first.
 */
export async function startAppProcess(entryPoint: string, env: Record<string, string>, ready: Readiness): Promise<AppProcess> {
  const child: ChildProcess = spawn(process.execPath, [resolve(repositoryRoot, 'scripts', 'run-ts.js'), entryPoint], {
    cwd: repositoryRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let probe: NodeJS.Timeout | undefined;
  await new Promise<void>((resolveStarted, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready instanceof RegExp && ready.test(output)) resolveStarted();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${entryPoint} exited with ${code} before starting:\n${output}`)));
    if (!(ready instanceof RegExp)) {
      probe = setInterval(() => void ready().then((isReady) => isReady && resolveStarted()), READINESS_PROBE_INTERVAL_MS);
    }
  }).finally(() => clearInterval(probe));
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    output: () => output,
    kill: async () => {
      if (!running()) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (!running()) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
