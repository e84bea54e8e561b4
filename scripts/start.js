#!/usr/bin/env node
// `npm start`: checks prerequisites, applies migrations, then runs the gateway and every worker in this terminal,
// restarting a crashed one (scripts/supervisor.js); SIGTERM/SIGINT drain them and leave no process behind.
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const { loadEnvFileIfPresent } = require('./load-env');

// Before the prerequisites check reads DATABASE_URL and REDIS_URL; the children inherit what it loaded.
loadEnvFileIfPresent();
const { checkPrerequisites, root } = require('./prerequisites');
const { supervise, DEFAULT_STOP_TIMEOUT_MS } = require('./supervisor');

const processes = [
  { name: 'gateway', entry: 'apps/gateway/src/main.ts' },
  { name: 'extractor', entry: 'apps/extractor-worker/src/main.ts' },
  { name: 'crawler', entry: 'apps/crawler-worker/src/main.ts' },
  { name: 'research', entry: 'apps/research-worker/src/main.ts' },
];

/** An entry point through scripts/run.js: compiled when the build is up to date (main() builds it), TypeScript otherwise. */
function runEntry(entry, args = [], options = {}) {
  return execFileSync(process.execPath, [path.join(__dirname, 'run.js'), entry, ...args], { cwd: root, stdio: 'inherit', ...options });
}

async function main() {
  await checkPrerequisites({ requireChromium: false });
  require('./prisma-generate-if-needed').generateIfNeeded();
  // Every process then runs compiled code (scripts/run.js picks dist/ when it is fresh).
  require('./build').buildIfStale();
  try {
    runEntry('prisma/migrate.ts');
  } catch {
    process.exit(1);
  }
  const port = process.env.PORT || '3000';
  // The workers' health ports follow PORT unless set (3000 → 3101, 3102, 3103), so a second Sift on the machine needs
  // only its own PORT, DATABASE_URL and REDIS_URL.
  const workerPorts = { EXTRACTOR_PORT: 101, CRAWLER_PORT: 102, RESEARCH_PORT: 103 };
  for (const [setting, offset] of Object.entries(workerPorts)) {
    if (!process.env[setting]) process.env[setting] = String(Number(port) + offset);
  }
  const stopTimeoutMs = Number(process.env.SIFT_STOP_TIMEOUT_MS) || DEFAULT_STOP_TIMEOUT_MS;
  const stack = supervise({
    children: processes.map(({ name, entry }) => ({ name, command: process.execPath, args: [path.join(__dirname, 'run.js'), entry], cwd: root, env: process.env })),
    stopTimeoutMs,
  });
  const stop = (signal) => stack.stop(signal).then(() => process.exit(0));
  stack.failed.then(() => process.exit(1));
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  console.log(
    [
      '',
      `Sift is starting on http://127.0.0.1:${port}`,
      `  Swagger UI:  http://127.0.0.1:${port}/docs`,
      `  Health:      http://127.0.0.1:${port}/health`,
      '  Get an API key:  npm run admin -- keys create --account my-team',
      '',
    ].join('\n'),
  );
}

main();
