#!/usr/bin/env node
// `npm run build`: compiles the apps, libs and the migration runner with SWC into dist/ (the same tree, .js beside
// .js), so a deployment starts compiled code instead of compiling TypeScript at every start. `@sift/*` imports
// become relative paths; migrations and plain .js files (the task-pool thread entry) are copied along.
const fs = require('node:fs');
const path = require('node:path');
const swc = require('@swc/core');
const { compilerOptions } = require('../tsconfig.base.json');
const { root, distDirectory, buildStamp, compiledEntry } = require('./compiled-entry');

const SOURCE_ROOTS = ['apps', 'libs'];
const TESTS = /\.(spec|int-spec|e2e-spec)\.ts$/;
/** Not part of any running process: black-box tests and test-only fixtures. */
const SKIPPED_FOLDERS = new Set(['node_modules', 'fixtures', 'gateway-e2e']);

const swcOptions = {
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    keepClassNames: true,
    baseUrl: root,
    paths: compilerOptions.paths,
  },
  module: { type: 'commonjs' },
  sourceMaps: true,
};

function* sourceFiles(directory) {
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    if (SKIPPED_FOLDERS.has(entry.name)) continue;
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !TESTS.test(entry.name)) yield full;
  }
}

function compile(file, into = distDirectory) {
  const relative = path.relative(root, file);
  const target = path.join(into, relative.replace(/\.ts$/, '.js'));
  fs.mkdirSync(path.dirname(target), { recursive: true });
  if (file.endsWith('.js')) {
    fs.copyFileSync(file, target);
    return;
  }
  const { code, map } = swc.transformFileSync(file, { ...swcOptions, filename: file, outputPath: target });
  fs.writeFileSync(target, `${code}\n//# sourceMappingURL=${path.basename(target)}.map\n`);
  if (map) fs.writeFileSync(`${target}.map`, map);
}

/**
 * Compiles every source into a fresh dist/ (what `npm run build` does). The tree is built beside dist/ and put in its
 * place by renames, so a process starting from dist/ meanwhile (another test's stack) never finds it half written.
 */
function build() {
  const staging = `${distDirectory}.building-${process.pid}`;
  const previous = `${distDirectory}.previous-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  const files = [...SOURCE_ROOTS.flatMap((folder) => [...sourceFiles(path.join(root, folder))]), path.join(root, 'prisma', 'migrate.ts')];
  for (const file of files) compile(file, staging);
  // libs/persistence finds the migrations relative to its own compiled file.
  fs.cpSync(path.join(root, 'prisma', 'migrations'), path.join(staging, 'prisma', 'migrations'), { recursive: true });
  fs.writeFileSync(path.join(staging, path.relative(distDirectory, buildStamp)), `${new Date().toISOString()}\n`);
  if (fs.existsSync(distDirectory)) fs.renameSync(distDirectory, previous);
  fs.renameSync(staging, distDirectory);
  fs.rmSync(previous, { recursive: true, force: true });
  return files.length;
}

const LOCK = path.join(root, 'tmp', 'build.lock');
/** A lock older than this was left by a build that died: builds take about a second. */
const STALE_LOCK_MS = 60_000;

/**
 * Builds unless dist/ is newer than every source (compiledEntry), so `npm start` and the benchmarks run compiled
 * code: a process started from TypeScript keeps the TypeScript compiler that SWC's loader reads tsconfig.json with,
 * about 18 MB more heap for every garbage collection to mark (docs/benchmarks.md, round 12). Several starts at once
 * (the end-to-end tests) take turns on a lock file: one builds, the others find the build fresh.
 */
function buildIfStale() {
  const fresh = () => compiledEntry('apps/gateway/src/main.ts') !== undefined;
  if (fresh()) return false;
  fs.mkdirSync(path.dirname(LOCK), { recursive: true });
  for (;;) {
    try {
      fs.closeSync(fs.openSync(LOCK, 'wx'));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      try {
        if (Date.now() - fs.statSync(LOCK).mtimeMs > STALE_LOCK_MS) fs.rmSync(LOCK, { force: true });
      } catch {
        // Released meanwhile: try again.
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  try {
    if (fresh()) return false;
    build();
    return true;
  } finally {
    fs.rmSync(LOCK, { force: true });
  }
}

if (require.main === module) {
  const count = build();
  console.log(`compiled ${count} files into ${path.relative(root, distDirectory)}/`);
}

module.exports = { build, buildIfStale, compile };
