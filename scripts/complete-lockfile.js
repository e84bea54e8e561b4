#!/usr/bin/env node
// The npm registry reachable from our machines does not serve every platform build of native packages (e.g.
// @swc/core-darwin-arm64), so `npm install` leaves those optional dependencies out of package-lock.json, and
// `npm ci` then refuses the lockfile as out of sync. This adds the missing entries with the platform (os, cpu,
// libc) read from each package's name: npm skips them on every other platform without fetching anything, exactly
// as it does for the entries it wrote itself. Run it after `npm install` changes the lockfile.
const fs = require('node:fs');
const path = require('node:path');

const lockPath = path.resolve(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'linux', 'win32', 'freebsd', 'android', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = OS.find((candidate) => parts.includes(candidate));
  const cpu = CPU.find((candidate) => parts.includes(candidate)) ?? (parts.includes('universal') ? 'arm64' : undefined);
  const libc = parts.some((part) => part.startsWith('musl')) ? 'musl' : parts.some((part) => part.startsWith('gnu')) ? 'glibc' : undefined;
  return os && cpu ? { os: [os], cpu: [cpu], ...(libc && os === 'linux' ? { libc: [libc] } : {}) } : null;
}

function resolvedLocation(fromLocation, name) {
  // Node's resolution: the nearest node_modules folder up from the dependent that holds the name.
  let base = fromLocation;
  for (;;) {
    const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return null;
    const index = base.lastIndexOf('/node_modules/');
    base = index === -1 ? '' : base.slice(0, index);
  }
}

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const platform = platformOf(name);
    const version = /^\d+\.\d+\.\d+(-[\w.]+)?$/.test(range) ? range : null;
    if (!platform || !version) continue;
    const existing = resolvedLocation(location, name);
    if (existing && packages[existing].version === version) continue;
    // A second copy of the dependent (another version) gets its platform builds beside it, as npm nests them.
    const target = existing || !location ? `${location ? `${location}/` : ''}node_modules/${name}` : `node_modules/${name}`;
    packages[existing ? `${location}/node_modules/${name}` : target] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
    added += 1;
  }
}
const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
lock.packages = sorted;
fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: added ${added} platform entries the registry does not serve`);
