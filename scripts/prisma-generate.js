#!/usr/bin/env node
// Generates the Prisma client into libs/persistence/src/generated. `prisma generate` never runs the schema
// engine, but Prisma 7 wants a path to one; any existing file satisfies it offline.
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const root = path.resolve(__dirname, '..');
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || process.execPath };
execFileSync(process.execPath, [require.resolve('prisma/build/index.js'), 'generate'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
