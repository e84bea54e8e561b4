#!/usr/bin/env node
// `npm run build`: compiles the apps, libs and the migration runner with SWC into dist/ (the same tree, .js beside
// .js), so a deployment starts compiled code instead of compiling TypeScript at every start. `@sift/*` imports
// become relative paths; migrations and plain .js files (the task-pool thread entry) are copied along.
const fs = require('node:fs');
const path = require('node:path');
const swc = require('@swc/core');
const { compilerOptions } = require('../tsconfig.base.json');
const { root, distDirectory, buildStamp } = require('./compiled-entry');

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

function compile(file) {
  const relative = path.relative(root, file);
  const target = path.join(distDirectory, relative.replace(/\.ts$/, '.js'));
  fs.mkdirSync(path.dirname(target), { recursive: true });
  if (file.endsWith('.js')) {
    fs.copyFileSync(file, target);
    return;
  }
  const { code, map } = swc.transformFileSync(file, { ...swcOptions, filename: file, outputPath: target });
  fs.writeFileSync(target, `${code}\n//# sourceMappingURL=${path.basename(target)}.map\n`);
  if (map) fs.writeFileSync(`${target}.map`, map);
}

function main() {
  fs.rmSync(distDirectory, { recursive: true, force: true });
  const files = [...SOURCE_ROOTS.flatMap((folder) => [...sourceFiles(path.join(root, folder))]), path.join(root, 'prisma', 'migrate.ts')];
  for (const file of files) compile(file);
  // libs/persistence finds the migrations relative to its own compiled file.
  fs.cpSync(path.join(root, 'prisma', 'migrations'), path.join(distDirectory, 'prisma', 'migrations'), { recursive: true });
  fs.writeFileSync(buildStamp, `${new Date().toISOString()}\n`);
  console.log(`compiled ${files.length} files into ${path.relative(root, distDirectory)}/`);
}

main();
