#!/usr/bin/env node
// `npm start`: checks prerequisites, applies migrations, then runs the gateway and every worker in this terminal.
const { spawn, execFileSync } = require('node:child_process');
const path = require('node:path');
const { checkPrerequisites, root } = require('./prerequisites');

const processes = [
  { name: 'gateway', entry: 'apps/gateway/src/main.ts' },
  { name: 'extractor', entry: 'apps/extractor-worker/src/main.ts' },
  { name: 'crawler', entry: 'apps/crawler-worker/src/main.ts' },
  { name: 'research', entry: 'apps/research-worker/src/main.ts' },
];

function runTs(entry, args = [], options = {}) {
  return execFileSync(process.execPath, [path.join(__dirname, 'run-ts.js'), entry, ...args], { cwd: root, stdio: 'inherit', ...options });
}

async function main() {
  await checkPrerequisites({ requireChromium: false });
  require('./prisma-generate-if-needed').generateIfNeeded();
  try {
    runTs('prisma/migrate.ts');
  } catch {
    process.exit(1);
  }
  const port = process.env.PORT || '3000';
  const children = [];
  let stopping = false;
  const stopAll = (code) => {
    if (stopping) return;
    stopping = true;
    for (const child of children) child.kill('SIGTERM');
    setTimeout(() => process.exit(code), 5000).unref();
    Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve))))).then(() => process.exit(code));
  };
  for (const { name, entry } of processes) {
    const child = spawn(process.execPath, [path.join(__dirname, 'run-ts.js'), entry], { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const prefix = `[${name}]`.padEnd(12);
    for (const stream of [child.stdout, child.stderr]) {
      let buffered = '';
      stream.on('data', (chunk) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop();
        for (const line of lines) (stream === child.stderr ? process.stderr : process.stdout).write(`${prefix} ${line}\n`);
      });
    }
    child.on('exit', (code, signal) => {
      if (!stopping) {
        console.error(`${prefix} exited (${signal ?? code}); stopping Sift.`);
        stopAll(code || 1);
      }
    });
    children.push(child);
  }
  process.on('SIGINT', () => stopAll(0));
  process.on('SIGTERM', () => stopAll(0));
  console.log(
    [
      '',
      `Sift is starting on http://127.0.0.1:${port}`,
      `  Swagger UI:  http://127.0.0.1:${port}/docs`,
      `  Health:      http://127.0.0.1:${port}/health`,
      '  Get an API key:  npm run admin -- keys create --account my-team --plan researcher',
      '',
    ].join('\n'),
  );
}

main();
