#!/usr/bin/env node
// Runs one of Sift's entry points (apps/<name>/src/main.ts, prisma/migrate.ts, the admin command line) after
// loading .env: the compiled copy from `npm run build` when it is up to date, else the TypeScript through SWC.
const path = require('node:path');
const { loadEnvFileIfPresent } = require('./load-env');
const { compiledEntry, root } = require('./compiled-entry');

const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/run.js <apps/…/main.ts> [args...]');
  process.exit(2);
}
loadEnvFileIfPresent();
const compiled = compiledEntry(path.relative(root, path.resolve(entry)));
if (compiled) {
  process.setSourceMapsEnabled(true);
  process.argv = [process.argv[0], compiled, ...rest];
  require(compiled);
} else {
  process.argv = [process.argv[0], path.join(__dirname, 'run-ts.js'), entry, ...rest];
  require('./run-ts');
}
