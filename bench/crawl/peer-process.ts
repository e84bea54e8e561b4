import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { compiledBenchEntry, repositoryRoot, stopChild } from '../search-quality/search-stack';

/**
 * A crawl benchmark's peer crawler in a process of its own (bench/crawl/crawlee-crawl.ts,
 * bench/crawl/crawlee-playwright-crawl.ts). Its protocol on stdio: one warm-up crawl, then "ready"; each line read
 * from stdin starts one measured crawl of the URL on it (of the root it was started with when the line is empty),
 * answered by one JSON line that starts with {"pages"; stdin closed ends it.
 */
export interface PeerProcess<Figures> {
  pid: number;
  /** One measured crawl of the site from `root` (default: the root the process was started with). */
  run(root?: string): Promise<Figures>;
  stop(): Promise<void>;
}

/**
 * Starts the peer `entry` with `args`, compiled as Sift's processes are (entryRunner), so neither side's heap holds
 * the TypeScript compiler nor the other side's objects; resolves after its warm-up crawl. The entry may import
 * packages and `@sift/*` libraries only: it is compiled alone, beside the build.
 */
export async function startPeerProcess<Figures>(entry: string, args: string[], name: string): Promise<PeerProcess<Figures>> {
  const child = spawn(process.execPath, [compiledBenchEntry(entry), ...args], {
    cwd: repositoryRoot,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const pending: ((line: string) => void)[] = [];
  // The crawler may log to stdout too: only the protocol's lines answer.
  lines.on('line', (line) => {
    if (line === 'ready' || line.startsWith('{"pages"')) pending.shift()?.(line);
  });
  const nextLine = (): Promise<string> =>
    new Promise((resolveLine, reject) => {
      pending.push(resolveLine);
      child.once('exit', (code) => reject(new Error(`the ${name} process exited (${code})`)));
    });
  const ready = await nextLine();
  if (ready !== 'ready') {
    await stopChild(child);
    throw new Error(`the ${name} process said ${ready}`);
  }
  return {
    pid: child.pid ?? 0,
    run: async (root) => {
      child.stdin.write(`${root ?? ''}\n`);
      return JSON.parse(await nextLine()) as Figures;
    },
    stop: async () => {
      child.stdin.end();
      await stopChild(child);
    },
  };
}
