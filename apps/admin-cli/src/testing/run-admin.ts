import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Each command is a fresh Node process compiling TypeScript with SWC: seconds, not milliseconds. */
export const CHILD_PROCESS_TEST_TIMEOUT = 300_000;

export const REPOSITORY_ROOT = join(__dirname, '..', '..', '..', '..');

export interface AdminRun {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Runs the command line exactly as `npm run admin --` does, as a separate process, with extra environment. */
export async function runAdmin(env: Record<string, string | undefined>, ...args: string[]): Promise<AdminRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['scripts/run-ts.js', 'apps/admin-cli/src/main.ts', ...args], {
      cwd: REPOSITORY_ROOT,
      env: { ...process.env, ...env },
    });
    return { stdout, stderr, exitCode: 0 };
  } catch (error) {
    const failure = error as { stdout: string; stderr: string; code: number };
    return { stdout: failure.stdout, stderr: failure.stderr, exitCode: failure.code };
  }
}
