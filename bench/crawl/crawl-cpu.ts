// Where a measured crawl's machine time goes, beside its wall time: CPU seconds per process, read from /proc while the
// crawl runs (bench/crawl/run.ts, bench/crawl/js-site.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { backendCpuSpentMs, databaseBackendCpuMs, ticksPerSecond } from '../search-latency/proc-cpu';

/** CPU seconds each process spent during one run. */
export interface CpuSplit {
  gateway: number;
  /** The crawler process and its child processes (a browser it launched): Sift's crawler worker, or the peer's. */
  worker: number;
  /** Of `worker`, the processes started under the crawler process: its browser, and any tool it runs. */
  workerChildren: number;
  postgres: number;
  /** This process: the loopback site's server. */
  bench: number;
}

// How often the process trees are read during a run. A process that ends between two readings loses the CPU it used
// since the last one; a rendering page's processes live for about a second, and mostly idle at their end.
const SAMPLE_INTERVAL_MS = 50;

/** User plus system ticks of one process (its threads included, its children not), or undefined once it is gone. */
function ownTicks(pid: number): { parent: number; ticks: number } | undefined {
  try {
    // Fields after the command name: state, ppid, … utime (12th), stime.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return { parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

interface TrackedProcess {
  /** The measured process whose tree it belongs to, or undefined when it is in none. */
  root: number | undefined;
  firstTicks: number;
  lastTicks: number;
}

/**
 * CPU used by measured processes and every process started under them while a run lasts, read from /proc every
 * SAMPLE_INTERVAL_MS. Reading once before and once after would lose the browser: Chromium's renderers are children of
 * its zygote, and when a render's processes or the whole browser end, their time reaches no measured process's
 * cumulative child time (they are reaped outside the tree). Each process's own time is summed instead, as last seen.
 */
class ProcessTreeSampler {
  private readonly tracked = new Map<number, TrackedProcess>();
  private readonly timer: NodeJS.Timeout;
  /** CPU this process spent reading /proc, so it is not counted as the site server's. */
  samplingMs = 0;

  constructor(private readonly roots: number[]) {
    this.sample(true);
    this.timer = setInterval(() => this.sample(false), SAMPLE_INTERVAL_MS);
  }

  /** Stops sampling after one last reading; CPU milliseconds of each root's tree over the run, and of its descendants. */
  stop(): Map<number, { tree: number; descendants: number }> {
    clearInterval(this.timer);
    this.sample(false);
    const totals = new Map(this.roots.map((root) => [root, { tree: 0, descendants: 0 }]));
    for (const [pid, { root, firstTicks, lastTicks }] of this.tracked) {
      const total = root === undefined ? undefined : totals.get(root);
      if (!total) continue;
      const ms = ((lastTicks - firstTicks) * 1000) / ticksPerSecond;
      total.tree += ms;
      if (pid !== root) total.descendants += ms;
    }
    return totals;
  }

  private sample(first: boolean): void {
    const startedAt = process.cpuUsage();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const pid = Number(entry);
      const known = this.tracked.get(pid);
      // A process outside every tree stays outside: only new processes and tree members are read.
      if (known && known.root === undefined) continue;
      const times = ownTicks(pid);
      if (!times) continue;
      if (known) {
        known.lastTicks = times.ticks;
        continue;
      }
      // Known at the first reading: its time so far is not the run's. A process started since: all of it is.
      const firstTicks = first ? times.ticks : 0;
      this.tracked.set(pid, { root: this.rootOf(pid, times.parent), firstTicks, lastTicks: times.ticks });
    }
    const used = process.cpuUsage(startedAt);
    this.samplingMs += (used.user + used.system) / 1000;
  }

  private rootOf(pid: number, parent: number): number | undefined {
    if (this.roots.includes(pid)) return pid;
    const known = this.tracked.get(parent);
    if (known) return known.root;
    // A parent not seen yet (it started since the last reading): follow the chain up.
    const parentTimes = parent > 1 ? ownTicks(parent) : undefined;
    return parentTimes ? this.rootOf(parent, parentTimes.parent) : undefined;
  }
}

/**
 * Runs `run` and returns how many CPU seconds each process spent meanwhile: the gateway and the crawler (each with
 * the processes started under it, such as a browser), the Postgres backends serving `databaseUrl`'s database, and
 * this process (the loopback site's server).
 */
export async function withCpuSplit<T>(
  databaseUrl: string,
  processes: { gateway?: { pid: number }; worker?: { pid: number } },
  run: () => Promise<T>,
): Promise<[T, CpuSplit]> {
  const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const backendsBefore = databaseBackendCpuMs(database);
  const usageBefore = process.cpuUsage();
  const sampler = new ProcessTreeSampler([processes.gateway?.pid, processes.worker?.pid].filter((pid): pid is number => pid !== undefined && pid > 0));
  let trees: Map<number, { tree: number; descendants: number }>;
  let result: T;
  try {
    result = await run();
  } finally {
    trees = sampler.stop();
  }
  const usage = process.cpuUsage(usageBefore);
  const postgres = backendCpuSpentMs(backendsBefore, databaseBackendCpuMs(database));
  const treeSeconds = (pid: number | undefined, part: 'tree' | 'descendants' = 'tree'): number => (pid === undefined ? 0 : (trees.get(pid)?.[part] ?? 0) / 1000);
  return [
    result,
    {
      gateway: treeSeconds(processes.gateway?.pid),
      worker: treeSeconds(processes.worker?.pid),
      workerChildren: treeSeconds(processes.worker?.pid, 'descendants'),
      postgres: postgres / 1000,
      bench: ((usage.user + usage.system) / 1000 - sampler.samplingMs) / 1000,
    },
  ];
}

export function cpuLine(label: string, pages: number, split: CpuSplit, workerLabel = 'worker'): string {
  const total = split.gateway + split.worker + split.postgres + split.bench;
  const format = (value: number): string => (pages === 0 ? value.toFixed(2) : ((value / pages) * 1000).toFixed(1));
  const children = split.workerChildren > 0 ? ` (child processes ${format(split.workerChildren)})` : '';
  const unit = pages === 0 ? 'CPU s in all (no page to divide by)' : 'CPU ms/page';
  return `${label.padEnd(38)} ${unit}: total ${format(total)} = gateway ${format(split.gateway)} + ${workerLabel} ${format(split.worker)}${children} + postgres ${format(split.postgres)} + bench process ${format(split.bench)}`;
}
