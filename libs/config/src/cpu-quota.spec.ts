import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { cgroupCpuLimit, usableCpuCount } from './cpu-quota';

describe('the CPU quota of the cgroup', () => {
  let root: string;

  /** A fake cgroup mount: each entry is a file path under it and its content. */
  const cgroup = (files: Record<string, string>): string => {
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), content);
    }
    return root;
  };

  beforeEach(() => (root = mkdtempSync(path.join(tmpdir(), 'sift-cgroup-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('reads cgroup v2 cpu.max: "max" is no limit, a quota is whole CPUs rounded down, at least 1', () => {
    expect(cgroupCpuLimit(cgroup({ 'cpu.max': 'max 100000\n' }))).toBeUndefined();
    expect(cgroupCpuLimit(cgroup({ 'cpu.max': '200000 100000\n' }))).toBe(2);
    expect(cgroupCpuLimit(cgroup({ 'cpu.max': '150000 100000\n' }))).toBe(1);
    expect(cgroupCpuLimit(cgroup({ 'cpu.max': '50000 100000\n' }))).toBe(1);
    expect(cgroupCpuLimit(cgroup({ 'cpu.max': '800000 200000' }))).toBe(4);
  });

  it('reads cgroup v1 cfs quota and period under cpu/ or cpu,cpuacct/; -1 is no limit', () => {
    expect(cgroupCpuLimit(cgroup({ 'cpu/cpu.cfs_quota_us': '300000\n', 'cpu/cpu.cfs_period_us': '100000\n' }))).toBe(3);
    rmSync(path.join(root, 'cpu'), { recursive: true });
    expect(cgroupCpuLimit(cgroup({ 'cpu,cpuacct/cpu.cfs_quota_us': '-1\n', 'cpu,cpuacct/cpu.cfs_period_us': '100000\n' }))).toBeUndefined();
    expect(cgroupCpuLimit(cgroup({ 'cpu,cpuacct/cpu.cfs_quota_us': '100000\n', 'cpu,cpuacct/cpu.cfs_period_us': '100000\n' }))).toBe(1);
  });

  it('prefers cgroup v2 when both are mounted', () => {
    expect(cgroupCpuLimit(cgroup({ 'cpu.max': '100000 100000', 'cpu/cpu.cfs_quota_us': '400000', 'cpu/cpu.cfs_period_us': '100000' }))).toBe(1);
  });

  it('knows no limit when the files are absent or unreadable as numbers', () => {
    expect(cgroupCpuLimit(root)).toBeUndefined();
    expect(cgroupCpuLimit(path.join(root, 'not-mounted'))).toBeUndefined();
    expect(cgroupCpuLimit(cgroup({ 'cpu/cpu.cfs_quota_us': '200000' }))).toBeUndefined();
    expect(cgroupCpuLimit(cgroup({ 'cpu.max': 'garbage' }))).toBeUndefined();
  });

  it('caps the CPUs the scheduler offers by the quota, and falls back to them without one', () => {
    expect(usableCpuCount(root)).toBe(availableParallelism());
    expect(usableCpuCount(cgroup({ 'cpu.max': '100000 100000' }))).toBe(1);
    expect(usableCpuCount(cgroup({ 'cpu.max': `${(availableParallelism() + 8) * 100_000} 100000` }))).toBe(availableParallelism());
  });
});
