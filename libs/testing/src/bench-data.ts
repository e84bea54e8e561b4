import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const REPOSITORY_ROOT = path.resolve(__dirname, '../../..');

/** `<folder>/shared/bench-data` for the folder and each of its parents, nearest first. */
function candidatesAbove(folder: string): string[] {
  const found: string[] = [];
  for (let current = path.resolve(folder); ; current = path.dirname(current)) {
    found.push(path.join(current, 'shared', 'bench-data'));
    if (path.dirname(current) === current) return found;
  }
}

/** The local repository this checkout was cloned from, when `origin` is a path on this machine. */
function localOrigin(): string | undefined {
  try {
    const url = execFileSync('git', ['-C', REPOSITORY_ROOT, 'config', '--get', 'remote.origin.url'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (url.startsWith('file://')) return new URL(url).pathname;
    return path.isAbsolute(url) ? url : undefined;
  } catch {
    return undefined;
  }
}

let resolved: string | undefined;

/**
 * The third-party benchmark data (`shared/bench-data`), read in place, never copied into the repository:
 * `SIFT_BENCH_DATA` when set, else the nearest `shared/bench-data` beside the repository or one of its parent
 * folders, else the same beside the local repository this checkout was cloned from, so that a clone made in a
 * temporary folder (`git clone . "$(mktemp -d)"`) reads the same data. Throws, saying where it looked, when
 * none exists.
 */
export function benchDataDirectory(): string {
  if (resolved) return resolved;
  const fromEnvironment = process.env.SIFT_BENCH_DATA;
  const origin = localOrigin();
  const candidates = fromEnvironment
    ? [path.resolve(fromEnvironment)]
    : [...candidatesAbove(REPOSITORY_ROOT), ...(origin ? candidatesAbove(origin) : [])];
  resolved = candidates.find((candidate) => existsSync(candidate));
  if (!resolved) {
    throw new Error(`The benchmark data (shared/bench-data) was not found; set SIFT_BENCH_DATA to its folder. Looked in: ${candidates.join(', ')}`);
  }
  return resolved;
}
