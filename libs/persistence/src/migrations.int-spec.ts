import { mkdtempSync, cpSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { applyMigrations, defaultMigrationsDirectory, ensureDatabaseExists } from './migrations';

const adminUrl = 'postgresql://postgres@127.0.0.1:5432/postgres';

async function withAdmin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describe('offline migrations (the same files prisma migrate deploy applies)', () => {
  const name = `sift_migrate_${process.pid}_${Date.now()}`;
  const url = `postgresql://postgres@127.0.0.1:5432/${name}`;

  afterAll(async () => {
    await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  });

  it('creates the database, applies every migration once and records them as Prisma does', async () => {
    expect(await ensureDatabaseExists(url)).toBe(true);
    expect(await ensureDatabaseExists(url)).toBe(false);

    const first = await applyMigrations(url);
    expect(first.applied.length).toBeGreaterThan(0);
    expect(first.alreadyApplied).toEqual([]);

    const second = await applyMigrations(url);
    expect(second.applied).toEqual([]);
    expect(second.alreadyApplied).toEqual(first.applied);

    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const rows = await client.query(
        'SELECT migration_name, length(checksum) AS len, finished_at IS NOT NULL AS done FROM "_prisma_migrations" ORDER BY migration_name',
      );
      expect(rows.rows.map((row) => row.migration_name)).toEqual(first.applied);
      expect(rows.rows.every((row) => row.len === 64 && row.done)).toBe(true);
      const plans = await client.query('SELECT id, monthly_credits FROM plans ORDER BY monthly_credits NULLS LAST');
      expect(plans.rows.map((row) => row.id)).toEqual([
        'paygo', 'researcher', 'project', 'bootstrap', 'startup', 'growth', 'enterprise', 'self-hosted',
      ]);
    } finally {
      await client.end();
    }
  });

  it('refuses to run when an applied migration file was edited afterwards', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'sift-migrations-'));
    cpSync(defaultMigrationsDirectory(), copy, { recursive: true });
    const [firstName] = (await applyMigrations(url, copy)).alreadyApplied;
    appendFileSync(join(copy, firstName, 'migration.sql'), '\n-- edited\n');
    await expect(applyMigrations(url, copy)).rejects.toThrow(/checksum mismatch/);
  });
});
