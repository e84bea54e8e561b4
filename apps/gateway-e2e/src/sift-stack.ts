import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { freePortBelowEphemeralRange } from '@sift/testing';

const repositoryRoot = resolve(__dirname, '..', '..', '..');

export interface SiftStackOptions {
  /** A shell command (run by bash from the repository root) that starts Sift instead of `node scripts/start.js`. */
  command?: string;
}

export interface SiftStack {
  baseUrl: string;
  env: NodeJS.ProcessEnv;
  /** Runs the admin command line against the stack's database and returns the new key. */
  createKey(plan: string): string;
  stop(): Promise<void>;
  output(): string;
}

/** Offsets from PORT of the ports `npm start` opens: the gateway, then the workers' PORT+101…103 (scripts/start.js). */
const STACK_PORT_OFFSETS = [0, 101, 102, 103];

/**
 * Starts Sift exactly as the README does (`npm start` = scripts/start.js: migrations, gateway, every worker),
 * on its own port, database, Redis index and queue prefix, with loopback fixtures allowed as egress targets.
 */
export async function startSiftStack(extraEnv: NodeJS.ProcessEnv = {}, options: SiftStackOptions = {}): Promise<SiftStack> {
  // Drawn below the ephemeral range: PORT+101 of a port the kernel handed out could be handed out meanwhile.
  const port = await freePortBelowEphemeralRange(STACK_PORT_OFFSETS);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/sift_e2e',
    REDIS_URL: 'redis://127.0.0.1:6379/6',
    QUEUE_PREFIX: `e2e-${randomBytes(4).toString('hex')}`,
    FETCH_ALLOW_CIDRS: '127.0.0.1/32',
    EXTRACTOR_PORT: '0',
    CRAWLER_PORT: '0',
    RESEARCH_PORT: '0',
    // The workers' "worker started" lines, which tell when the stack is up, are at level info.
    SIFT_LOG_LEVEL: 'log',
    ...extraEnv,
  };
  // A setting given as undefined is left unset, as a user who never heard of it would leave it.
  for (const [name, value] of Object.entries(extraEnv)) if (value === undefined) delete env[name];
  const [command, args] = options.command === undefined ? [process.execPath, [resolve(repositoryRoot, 'scripts', 'start.js')]] : ['bash', ['-c', options.command]];
  // Detached: its own process group, which stop() signals as a whole.
  const child: ChildProcess = spawn(command, args, {
    cwd: repositoryRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const ready = await waitUntil(async () => {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    const response = await fetch(`${baseUrl}/health`).catch(() => null);
    // The gateway answers before the workers finish booting; a worker registering its queue shows in the output.
    return response?.status === 200 && /extractor worker started/.test(output) && /crawler worker started/.test(output);
  }, 90_000);
  if (!ready) {
    process.kill(-child.pid!, 'SIGKILL');
    throw new Error(`Sift did not become ready:\n${output}`);
  }
  return {
    baseUrl,
    env,
    output: () => output,
    createKey(plan: string): string {
      const stdout = execFileSync(
        process.execPath,
        [resolve(repositoryRoot, 'scripts', 'run-ts.js'), 'apps/admin-cli/src/main.ts', 'keys', 'create', '--account', `e2e-${randomBytes(4).toString('hex')}`, '--plan', plan, '--json'],
        { cwd: repositoryRoot, env, encoding: 'utf8' },
      );
      const lastLine = stdout.trim().split('\n').pop() ?? '{}';
      return (JSON.parse(lastLine) as { api_key: string }).api_key;
    },
    async stop(): Promise<void> {
      if (child.exitCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      process.kill(-child.pid!, 'SIGTERM');
      const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((done) => setTimeout(done, 250));
  }
  return false;
}
