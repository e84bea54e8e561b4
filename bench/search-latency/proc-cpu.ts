import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

/**
 * CPU time (user + system) a process has used so far, from /proc; 0 once it is gone. Linux only. With `threadId`,
 * that one thread's time (the process id itself names its main thread).
 */
export function cpuMs(pid: number, threadId?: number): number {
  try {
    const fields = readFileSync(threadId === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${threadId}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return 0;
  }
}

/** Processes whose command line matches `pattern` (pgrep -f); none when nothing matches. */
export function pidsMatching(pattern: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', pattern]).toString().trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Postgres's server processes serving one database (client backends), by their titles. */
export function databaseBackendPids(database: string): number[] {
  return pidsMatching(`^postgres: .*\\b${database}\\b`);
}

/** CPU time each of one database's Postgres backends has used so far (ms), by process id. */
export function databaseBackendCpuMs(database: string): Map<number, number> {
  return new Map(databaseBackendPids(database).map((pid) => [pid, cpuMs(pid)]));
}

/**
 * CPU time the backends spent between two readings of databaseBackendCpuMs: one that started in between counts from
 * zero, one that ended in between (a pool closed a connection it had not used for a while) drops out instead of taking
 * its whole past with it.
 */
export function backendCpuSpentMs(before: Map<number, number>, after: Map<number, number>): number {
  return [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);
}

/** The machine's first /proc/stat line: CPU time over all cores by kind (user, nice, system, idle, iowait, irq, softirq, steal), in ms. */
function machineTimesMs(): number[] {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  return values.slice(0, 8).map((value) => (Number(value) * 1000) / ticksPerSecond);
}

/**
 * CPU time every process of the machine has used so far (all cores: user, nice, system, irq, softirq, and steal, the
 * time a virtual machine's hypervisor gave its cores to others while they had work), from /proc/stat.
 */
export function machineMs(): number {
  return machineTimesMs().reduce((sum, value, index) => (index === 3 || index === 4 ? sum : sum + value), 0);
}

/** Of machineMs, the steal alone: time the hypervisor took from this virtual machine's busy cores. */
export function machineStealMs(): number {
  return machineTimesMs()[7] ?? 0;
}
