import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { processTreeResidentBytes } from './process-memory';

jest.setTimeout(30_000);

const MEGABYTES = 96;

/**
 * A process that fills MEGABYTES of memory, then forks three children that keep it shared (copy-on-write) and sleep,
 * as Chromium's zygote does for its renderers; `marker` is on its command line. Resolves once all four are running.
 */
async function startSharingTree(marker: string): Promise<ChildProcess> {
  const script = [
    'import os, sys, time',
    `block = bytearray(os.urandom(${MEGABYTES} * 1024 * 1024))`,
    'for _ in range(3):',
    '    if os.fork() == 0:',
    '        time.sleep(60); os._exit(0)',
    'print("ready", flush=True)',
    'time.sleep(60)',
  ].join('\n');
  // A process group of its own, so the test ends the children with their parent.
  const child = spawn('python3', ['-c', script, marker], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
  });
  return child;
}

describe('processTreeResidentBytes', () => {
  it('counts the memory a process tree shares once, not once per process', async () => {
    const marker = `sift-memory-test-${randomUUID()}`;
    const tree = await startSharingTree(marker);
    try {
      const bytes = (await processTreeResidentBytes(marker)) ?? 0;
      // Four processes each resident with the whole block: their resident sizes sum to four times it.
      expect(bytes).toBeGreaterThan(MEGABYTES * 1024 * 1024);
      expect(bytes).toBeLessThan(2 * MEGABYTES * 1024 * 1024);
    } finally {
      if (tree.pid) process.kill(-tree.pid, 'SIGKILL');
    }
  });

  it('knows no process that does not exist', async () => {
    expect(await processTreeResidentBytes(`sift-memory-test-${randomUUID()}`)).toBeUndefined();
  });
});
