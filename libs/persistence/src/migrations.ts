import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';

/**
 * Applies prisma/migrations/<stamp>_<name>/migration.sql in order, offline, without Prisma's schema engine.
 * It keeps Prisma's own bookkeeping (the _prisma_migrations table, sha256 checksums, advisory lock id), so a
 * database migrated here is seen as up to date by `prisma migrate deploy` and the other way round.
 */
const PRISMA_ADVISORY_LOCK = 72707369;

export interface MigrationResult {
  applied: string[];
  alreadyApplied: string[];
}

export function defaultMigrationsDirectory(): string {
  return join(__dirname, '..', '..', '..', 'prisma', 'migrations');
}

export async function ensureDatabaseExists(databaseUrl: string): Promise<boolean> {
  const url = new URL(databaseUrl);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!database) return false;
  url.pathname = '/postgres';
  const admin = new Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount) return false;
    try {
      await admin.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
    } catch (error) {
      // Another process created it between our check and our CREATE.
      if ((error as { code?: string }).code !== '42P04') throw error;
      return false;
    }
    return true;
  } finally {
    await admin.end();
  }
}

export async function applyMigrations(
  databaseUrl: string,
  migrationsDirectory = defaultMigrationsDirectory(),
): Promise<MigrationResult> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const result: MigrationResult = { applied: [], alreadyApplied: [] };
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_ADVISORY_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
    const done = await client.query<{ migration_name: string; checksum: string }>(
      'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    const appliedChecksums = new Map(done.rows.map((row) => [row.migration_name, row.checksum]));
    const names = readdirSync(migrationsDirectory, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(migrationsDirectory, entry.name, 'migration.sql')))
      .map((entry) => entry.name)
      .sort();
    for (const name of names) {
      const sql = readFileSync(join(migrationsDirectory, name, 'migration.sql'), 'utf8');
      const checksum = createHash('sha256').update(sql).digest('hex');
      const previous = appliedChecksums.get(name);
      if (previous !== undefined) {
        if (previous !== checksum) {
          throw new Error(`Migration ${name} was changed after it was applied (checksum mismatch).`);
        }
        result.alreadyApplied.push(name);
        continue;
      }
      const id = randomUUID();
      await client.query('BEGIN');
      try {
        await client.query(
          'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())',
          [id, checksum, name],
        );
        await client.query(sql);
        await client.query(
          'UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1',
          [id],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${name} failed: ${(error as Error).message}`);
      }
      result.applied.push(name);
    }
    return result;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_ADVISORY_LOCK]).catch(() => undefined);
    await client.end();
  }
}
