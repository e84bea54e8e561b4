import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';

/** Where the kernel mounts the cgroup hierarchy; inside a container, the container's own cgroup. */
export const CGROUP_ROOT = '/sys/fs/cgroup';

/**
 * The CPUs the cgroup's quota allows this process, in whole CPUs (at least 1), or undefined when there is no quota
 * or no cgroup file to read. cgroup v2: `cpu.max` ("<quota> <period>" or "max <period>"); v1: `cpu.cfs_quota_us`
 * and `cpu.cfs_period_us` (quota -1: none) under `cpu/` or `cpu,cpuacct/`. A fractional quota rounds down, as
 * libuv and Rust do: a thread pool sized to 1.5 CPUs would have its second thread throttled half the time.
 */
export function cgroupCpuLimit(root: string = CGROUP_ROOT): number | undefined {
  const v2 = readText(path.join(root, 'cpu.max'));
  if (v2 !== undefined) {
    const [quota, period] = v2.split(/\s+/);
    return cpusOf(quota === 'max' ? -1 : Number(quota), Number(period ?? 100_000));
  }
  for (const controller of ['cpu', 'cpu,cpuacct', 'cpuacct,cpu']) {
    const quota = readText(path.join(root, controller, 'cpu.cfs_quota_us'));
    const period = readText(path.join(root, controller, 'cpu.cfs_period_us'));
    if (quota !== undefined && period !== undefined) return cpusOf(Number(quota), Number(period));
  }
  return undefined;
}

/**
 * The CPUs this process can use: the scheduler's CPU set (os.availableParallelism, which on Node 20 ignores the
 * cgroup quota a container runtime sets) capped by that quota. Thread pools are sized from this, not from the
 * host's core count: a 2-CPU container on a 64-core node must not start 64 parsing threads.
 */
export function usableCpuCount(root: string = CGROUP_ROOT): number {
  return Math.max(1, Math.min(availableParallelism(), cgroupCpuLimit(root) ?? Number.POSITIVE_INFINITY));
}

function cpusOf(quota: number, period: number): number | undefined {
  if (!Number.isFinite(quota) || !Number.isFinite(period) || quota <= 0 || period <= 0) return undefined;
  return Math.max(1, Math.floor(quota / period));
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}
