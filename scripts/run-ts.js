#!/usr/bin/env node
// Runs a TypeScript entry point in-process with SWC (decorator metadata and tsconfig paths included).
const path = require('node:path');
const root = path.resolve(__dirname, '..');
process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || path.join(root, 'tsconfig.runtime.json');
require('@swc-node/register');
const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/run-ts.js <file.ts> [args...]');
  process.exit(2);
}
process.argv = [process.argv[0], path.resolve(entry), ...rest];
require(path.resolve(root, entry));
