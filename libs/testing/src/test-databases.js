// Every integration test file gets a database of its own, copied from the migrated template database (the one
// TEST_DATABASE_URL names) just before the file runs. Two Jest workers run files at once; with one shared database a
// file's corpus statistics, background loops and backfills saw the other file's pages. Plain JavaScript, synchronous
// from jest-env.ts (a setup file cannot wait), and used by the global setup and teardown.
const { spawnSync } = require('node:child_process');

const DEFAULT_TEMPLATE_URL = 'postgresql://postgres@127.0.0.1:5432/sift_test';

function templateUrl() {
  return process.env.TEST_DATABASE_URL ?? DEFAULT_TEMPLATE_URL;
}

function databaseName(url) {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
}

function withDatabase(url, name) {
  return Object.assign(new URL(url), { pathname: `/${encodeURIComponent(name)}` }).toString();
}

/** The prefix of the copies one worker makes (a LIKE pattern with its underscores escaped). */
function copyPattern(worker) {
  const prefix = `${databaseName(templateUrl())}_w${worker ?? ''}`;
  return `${prefix.replace(/[\\_%]/g, (c) => `\\${c}`)}${worker === undefined ? '' : '\\_'}%`;
}

/** Runs SQL statements on the server's `postgres` database in a child process and waits for it. */
function runAdminSql(statementsScript) {
  const admin = withDatabase(templateUrl(), 'postgres');
  const script = `
    const { Client } = require('pg');
    (async () => {
      const client = new Client({ connectionString: ${JSON.stringify(admin)} });
      await client.connect();
      try { ${statementsScript} } finally { await client.end(); }
    })().catch((error) => { console.error(error.message); process.exit(1); });`;
  const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', cwd: __dirname, timeout: 60000 });
  if (result.status !== 0) throw new Error(`test database setup failed: ${result.stderr || result.error}`);
}

const dropMatching = (pattern) => `
  const { rows } = await client.query("SELECT datname FROM pg_database WHERE datname LIKE $1", [${JSON.stringify(pattern)}]);
  for (const { datname } of rows) await client.query('DROP DATABASE IF EXISTS "' + datname.replace(/"/g, '""') + '" WITH (FORCE)');`;

/**
 * A fresh copy of the template for the file about to run; the worker's previous copy (its file has finished) is
 * dropped first, so a run holds at most one copy per worker. Returns the copy's URL.
 */
function createFileDatabase() {
  const worker = process.env.JEST_WORKER_ID ?? '0';
  const template = databaseName(templateUrl());
  const name = `${template}_w${worker}_${process.pid}_${Date.now().toString(36)}`.slice(0, 63);
  runAdminSql(`${dropMatching(copyPattern(worker))}
    await client.query('CREATE DATABASE "${name}" TEMPLATE "${template}"');`);
  return withDatabase(templateUrl(), name);
}

/** Drops every worker's copies (the global setup, after an interrupted run, and the global teardown). */
function dropFileDatabases() {
  runAdminSql(dropMatching(copyPattern(undefined)));
}

module.exports = { createFileDatabase, dropFileDatabases, templateUrl };
