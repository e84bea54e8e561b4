import { readdir, readFile } from 'node:fs/promises';

interface ProcessEntry {
  pid: number;
  parentPid: number;
}

async function readProcessEntry(pid: number): Promise<ProcessEntry | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses; fields after the last ')' are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, parentPid: Number(fields[1]) };
  } catch {
    return undefined;
  }
}

/**
 * A process's share of the memory resident in RAM: its proportional set size, each page shared by N processes counted
 * a Nth in each (`/proc/<pid>/smaps_rollup`), so the sum over a process tree is the memory the tree holds. Chromium's
 * processes share most of their pages (the binary, the zygote's forked heap, shared memory): their resident sizes
 * (VmRSS, the fallback where the rollup is unavailable) summed count those pages once per process, over a gigabyte
 * for a dozen processes holding a few hundred megabytes.
 */
async function residentBytes(pid: number): Promise<number> {
  try {
    const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8');
    const match = /^Pss:\s+(\d+) kB/m.exec(rollup);
    if (match) return Number(match[1]) * 1024;
  } catch {
    // Older kernels have no rollup; the process may also have exited.
  }
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Memory held by the process whose command line carries `marker` and all its descendants (Chromium's renderers, GPU and
 * utility processes), shared pages counted once (residentBytes). `undefined` where /proc is unavailable.
 */
export async function processTreeResidentBytes(marker: string): Promise<number | undefined> {
  let pids: number[];
  try {
    pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return undefined;
  }
  const entries = (await Promise.all(pids.map(readProcessEntry))).filter((entry): entry is ProcessEntry => entry !== undefined);
  const roots: number[] = [];
  await Promise.all(
    entries.map(async ({ pid }) => {
      const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      if (commandLine.includes(marker)) roots.push(pid);
    }),
  );
  if (roots.length === 0) return undefined;
  const children = new Map<number, number[]>();
  for (const { pid, parentPid } of entries) children.set(parentPid, [...(children.get(parentPid) ?? []), pid]);
  const tree = new Set<number>();
  const pending = [...roots];
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    if (tree.has(pid)) continue;
    tree.add(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  const sizes = await Promise.all([...tree].map(residentBytes));
  return sizes.reduce((sum, size) => sum + size, 0);
}
