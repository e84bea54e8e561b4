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

async function residentBytes(pid: number): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Resident memory of the process whose command line carries `marker`, plus all its descendants
 * (Chromium's renderers, GPU and utility processes). `undefined` where /proc is unavailable.
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
