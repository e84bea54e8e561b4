import { PrismaPg } from '@prisma/adapter-pg';
import { Client, DatabaseError, Pool } from 'pg';
import type { ClientConfig, QueryConfig } from 'pg';
import { PrismaClient } from './generated/prisma/client';

export { PrismaClient };
export type { Prisma } from './generated/prisma/client';

const poolsByClient = new WeakMap<PrismaClient, Pool>();

export interface CreatePrismaClientOptions {
  /**
   * Wait at most FAIL_FAST_CONNECTION_MS for a new connection, POOL_WAIT_MS for a pooled one to come free and
   * QUERY_ANSWER_MS for a statement's answer, instead of without limit, so that a caller answers "unavailable" while
   * Postgres cannot be reached rather than hang: an unreachable host leaves a connection attempt waiting for the
   * kernel's TCP timeout, minutes, and a server that stops answering (paused, or partitioned away) leaves the
   * statements on its open connections waiting forever.
   */
  failFast?: boolean;
  /**
   * Bound a new connection's attempt (FAIL_FAST_CONNECTION_MS) and each statement's answer (QUERY_ANSWER_MS), but not
   * the wait for a pooled connection: for a worker, whose stores may queue for the pool under a large crawl while
   * Postgres is healthy, and whose writes are tried again once a statement fails, as they cannot be while it hangs.
   */
  boundedStatements?: boolean;
}

/** Far above a connection on a working network, far below a request's patience. */
export const FAIL_FAST_CONNECTION_MS = 3_000;
/**
 * How long a query may wait for a busy pool's connection. Longer than the connect bound: under a burst on a loaded
 * machine every connection can be busy for seconds while Postgres is healthy, and answering those queued requests 503
 * ("database unavailable") would report an outage that is not one. node-pg's pool has one setting for both waits
 * (connectionTimeoutMillis), so the connect bound is set on the clients it creates.
 */
const POOL_WAIT_MS = 10_000;

/**
 * How long a statement may go without an answer: far above any the gateway or a worker sends a working database (the
 * longest are the admin jobs' batches of 200 rows and a large page's chunks), below a caller's patience. The statement
 * then fails, and the pool drops its connection (pg-pool ends a client released with an error), so the next statement
 * opens a new one or reports the outage.
 */
export const QUERY_ANSWER_MS = 15_000;

/**
 * How long a pooled connection is kept unused before the pool closes it: a minute, not node-pg's 10 s. The gateway's
 * key and credit caches last 10 s, so with node-pg's default the statements behind them, in a request that came 10 s
 * or more after the last, found their connections closed and waited for a new one (a backend's start and cold caches:
 * a key lookup 45–48 ms against 5 on an open connection).
 */
const IDLE_CONNECTION_MS = 60_000;

/**
 * Once a statement gets no answer at all (its QUERY_ANSWER_MS spent, or its connection lost, rather than an error
 * Postgres sent), the pool's idle connections share that path to the server, and each would make its next statement
 * wait QUERY_ANSWER_MS again: they are dropped (pg-pool removes and ends an idle connection that reports an error),
 * and the next statement opens a new one, which answers or fails within FAIL_FAST_CONNECTION_MS.
 */
function dropIdleConnectionsWhenUnanswered(pool: Pool): void {
  // Released and not given out since: each holds pg-pool's idle listener, which hears the error below.
  const idle = new Set<Client>();
  pool.on('acquire', (client) => idle.delete(client));
  pool.on('remove', (client) => idle.delete(client));
  pool.on('release', (error: Error | undefined, client) => {
    if (!error) {
      idle.add(client);
      return;
    }
    idle.delete(client);
    if (error instanceof DatabaseError) return;
    const suspects = [...idle];
    idle.clear();
    for (const suspect of suspects) suspect.emit('error', new Error('dropped: a statement on another pooled connection went unanswered'));
  });
}

/**
 * A pg client whose connection attempt gives up after FAIL_FAST_CONNECTION_MS, whatever its pool waits, and whose
 * statements give up after QUERY_ANSWER_MS ("Query read timeout").
 */
class FailFastClient extends Client {
  constructor(config?: ClientConfig) {
    super({ ...config, connectionTimeoutMillis: FAIL_FAST_CONNECTION_MS, query_timeout: QUERY_ANSWER_MS });
  }
}

/** One Prisma client per process, on the pg driver adapter (Prisma 7 has no built-in engine here). */
export function createPrismaClient(databaseUrl: string, poolSize = 10, options: CreatePrismaClientOptions = {}): PrismaClient {
  const pool = new Pool({
    connectionString: databaseUrl,
    max: poolSize,
    idleTimeoutMillis: IDLE_CONNECTION_MS,
    ...(options.failFast || options.boundedStatements ? { Client: FailFastClient } : {}),
    ...(options.failFast ? { connectionTimeoutMillis: POOL_WAIT_MS } : {}),
  });
  // An idle connection Postgres ends (a restart, a failover, an administrator's terminate) is an 'error' event on the
  // pool, which would crash the process unheard: the pool drops that connection, and the next query opens another
  // or reports the outage to its caller.
  pool.on('error', () => undefined);
  if (options.failFast || options.boundedStatements) dropIdleConnectionsWhenUnanswered(pool);
  const client = new PrismaClient({ adapter: new PrismaPg(pool) });
  // The client owns the pool: $disconnect ends it, also when only queryRows used it (Prisma never connected).
  const disconnect = client.$disconnect.bind(client);
  client.$disconnect = async () => {
    await disconnect();
    if (!pool.ending && !pool.ended) await pool.end();
  };
  poolsByClient.set(client, pool);
  return client;
}

/** One SQL statement with positional parameters ($1, $2, …); a name makes it a prepared statement per connection. */
export interface SqlStatement {
  text: string;
  values: unknown[];
  /** Set only for statements whose text never varies: the plan is then parsed once per pooled connection. */
  name?: string;
}

/**
 * Runs a raw statement on the pg pool under a Prisma client, skipping Prisma's per-query compilation and result
 * mapping (a few milliseconds of gateway CPU per search on the hot read paths). Rows come back as pg parses them:
 * int4/float8 as numbers, arrays as arrays, timestamptz as Date, jsonb parsed. Clients not made by
 * createPrismaClient fall back to Prisma's raw query.
 */
export async function queryRows<Row>(prisma: PrismaClient, statement: SqlStatement): Promise<Row[]> {
  const pool = poolsByClient.get(prisma);
  if (!pool) return prisma.$queryRawUnsafe<Row[]>(statement.text, ...statement.values);
  const config: QueryConfig = { text: statement.text, values: statement.values };
  if (statement.name) config.name = statement.name;
  const result = await pool.query(config);
  return result.rows as Row[];
}
