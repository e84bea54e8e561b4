#!/usr/bin/env node
// `npm test`: the whole suite. Typecheck and lint (module boundaries) first, then Jest's unit and integration
// projects against real Postgres, Redis, BullMQ, Chromium and loopback fixture servers.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { checkPrerequisites, root } = require('./prerequisites');

function step(title, command, args) {
  console.log(`\n== ${title}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  console.log(`== ${title}: ${result.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result.status === 0;
}

async function main() {
  await checkPrerequisites({ requireChromium: true });
  require('./prisma-generate-if-needed').generateIfNeeded();
  const bin = (name) => path.join(root, 'node_modules', '.bin', name);
  const extra = process.argv.slice(2);
  const typecheck = step('typecheck', bin('tsc'), ['-p', 'tsconfig.json']);
  // The module-boundary rule reads Nx's project graph; without a computed graph it silently checks nothing.
  step('project graph', bin('nx'), ['show', 'projects']);
  const lint = step('lint', bin('eslint'), ['--max-warnings=0', 'apps', 'libs', 'prisma', 'bench', 'deploy']);
  fs.mkdirSync(path.join(root, 'tmp'), { recursive: true });
  const resultsFile = path.join(root, 'tmp', 'jest-results.json');
  fs.rmSync(resultsFile, { force: true });
  const jest = step('jest', bin('jest'), ['--ci', '--maxWorkers=2', '--json', `--outputFile=${resultsFile}`, ...extra]);
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  if (fs.existsSync(resultsFile)) {
    const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
    passed = results.numPassedTests;
    failed = results.numFailedTests + (results.numRuntimeErrorTestSuites ?? 0);
    skipped = results.numPendingTests + results.numTodoTests;
  } else if (!jest) {
    failed = 1;
  }
  if (!typecheck) failed += 1;
  if (!lint) failed += 1;
  console.log(`\nsift: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  process.exit(typecheck && lint && jest && failed === 0 ? 0 : 1);
}

main();
