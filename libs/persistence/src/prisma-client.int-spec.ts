import { PrismaPg } from '@prisma/adapter-pg';
import { createPrismaClient, PrismaClient, queryRows } from './prisma-client';

interface ProbeRow {
  number: number;
  words: string[];
  at: Date;
  payload: { kind: string };
}

const probe = {
  name: 'sift_probe_query_rows',
  text: `SELECT $1::int AS number, $2::text[] AS words, $3::timestamptz AS at, '{"kind": "probe"}'::jsonb AS payload`,
  values: [7, ['alpha', 'beta'], new Date('2026-11-22T10:00:00.000Z')],
};

describe('queryRows: raw statements on the pool under a Prisma client (real Postgres)', () => {
  it('runs a prepared statement on the pool, repeatedly, with pg-typed rows', async () => {
    const prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    try {
      for (let round = 0; round < 3; round += 1) {
        const rows = await queryRows<ProbeRow>(prisma, probe);
        expect(rows).toEqual([{ number: 7, words: ['alpha', 'beta'], at: new Date('2026-11-22T10:00:00.000Z'), payload: { kind: 'probe' } }]);
      }
    } finally {
      await prisma.$disconnect();
    }
    // $disconnect ended the pool too, although Prisma itself never connected.
    await expect(queryRows(prisma, probe)).rejects.toThrow();
  });

  it('outlives Postgres ending its idle connections, and the next query opens a new one', async () => {
    const prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    const admin = createPrismaClient(process.env.DATABASE_URL as string, 1);
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const [{ pid }] = await queryRows<{ pid: number }>(prisma, { text: 'SELECT pg_backend_pid() AS pid', values: [] });
      // The pooled connection is idle now; Postgres ends it as an administrator's command would (code 57P01).
      await queryRows(admin, { text: 'SELECT pg_terminate_backend($1)', values: [pid] });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const [{ pid: next }] = await queryRows<{ pid: number }>(prisma, { text: 'SELECT pg_backend_pid() AS pid', values: [] });
      expect({ uncaught, replaced: next !== pid }).toEqual({ uncaught: [], replaced: true });
    } finally {
      process.off('uncaughtException', onUncaught);
      await prisma.$disconnect();
      await admin.$disconnect();
    }
  });

  it('keeps an unused connection open past 10 s (node-pg would close it then), so a statement after a quiet spell finds it', async () => {
    const prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    try {
      const pidOf = async () => (await queryRows<{ pid: number }>(prisma, { text: 'SELECT pg_backend_pid() AS pid', values: [] }))[0].pid;
      const first = await pidOf();
      await new Promise((resolve) => setTimeout(resolve, 11_000));
      expect(await pidOf()).toBe(first);
    } finally {
      await prisma.$disconnect();
    }
  }, 30_000);

  it('keeps its idle connections when Postgres answers a statement with an error (only an unanswered one drops them)', async () => {
    const prisma = createPrismaClient(process.env.DATABASE_URL as string, 2, { failFast: true });
    const pidsOfTwo = async () =>
      Promise.all([1, 2].map(async () => (await queryRows<{ pid: number }>(prisma, { text: 'SELECT pg_backend_pid() AS pid, pg_sleep(0.2)', values: [] }))[0].pid));
    try {
      const before = await pidsOfTwo();
      await expect(queryRows(prisma, { text: 'SELECT 1 / 0', values: [] })).rejects.toThrow(/division by zero/);
      // The pool ended the connection that carried the error; the other one is still open and serves again.
      const after = await pidsOfTwo();
      expect(after.filter((pid) => before.includes(pid))).toHaveLength(1);
    } finally {
      await prisma.$disconnect();
    }
  });

  it('falls back to Prisma raw queries for a client it did not create', async () => {
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: process.env.DATABASE_URL as string, max: 1 }) });
    try {
      const rows = await queryRows<ProbeRow>(prisma, probe);
      expect(rows).toEqual([{ number: 7, words: ['alpha', 'beta'], at: new Date('2026-11-22T10:00:00.000Z'), payload: { kind: 'probe' } }]);
    } finally {
      await prisma.$disconnect();
    }
  });
});
