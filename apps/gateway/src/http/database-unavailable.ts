/**
 * Whether a failure means Postgres cannot be used right now (down, unreachable, restarting, out of connections),
 * as opposed to a bug or a refused statement: such a request is answered 503 with Retry-After, like a Redis outage,
 * instead of 500. The error reaches the gateway in several shapes, depending on the layer that saw it first:
 * Prisma's own errors (an error code, or PrismaClientInitializationError), the driver adapter's errors (a `kind`,
 * also wrapped by Prisma under `meta.driverAdapterError`), and pg's and pg-pool's errors from raw statements (a
 * socket error code, a Postgres SQLSTATE, or only a message).
 */
export function isDatabaseUnavailable(failure: unknown): boolean {
  return shapesOf(failure).some(
    (shape) =>
      shape.name === 'PrismaClientInitializationError' ||
      PRISMA_UNAVAILABLE_CODES.has(shape.code as string) ||
      SOCKET_FAILURE_CODES.has(shape.code as string) ||
      ADAPTER_UNAVAILABLE_KINDS.has(shape.kind as string) ||
      [shape.code, shape.originalCode].some((code) => typeof code === 'string' && SQLSTATE_UNAVAILABLE.test(code)) ||
      (typeof shape.message === 'string' && PG_CONNECTION_MESSAGES.test(shape.message)),
  );
}

/**
 * Prisma's codes for a database it cannot use: P1001 cannot reach it, P1002 timed out reaching it, P1008 the
 * operation timed out, P1017 the server closed the connection, P2024 timed out waiting for a pooled connection,
 * P2037 too many connections.
 */
const PRISMA_UNAVAILABLE_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2037']);

/** Node's codes for a connection that could not be made or broke. */
const SOCKET_FAILURE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** The driver adapter's kinds for the same (`DriverAdapterError.cause.kind`). */
const ADAPTER_UNAVAILABLE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);

/**
 * Postgres turning work away while it stops, starts or is full: class 08 (connection exception), 57P01 admin
 * shutdown, 57P02 crash shutdown, 57P03 cannot connect now (starting up), 53300 too many connections.
 */
const SQLSTATE_UNAVAILABLE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

/**
 * pg and pg-pool report these without a code: a broken or timed-out connection (pg-pool's wait, or the client's own
 * connect bound: "timeout expired"), a statement the server never answered (the client's query_timeout), a client
 * that cannot be used.
 */
const PG_CONNECTION_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|timeout expired$|Query read timeout$|Client has encountered a connection error and is not queryable|Client was closed and is not queryable)/;

interface ErrorShape {
  name?: unknown;
  code?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  message?: unknown;
}

/** The failure and what it wraps (its cause, Prisma's driver adapter error and that error's cause), a few levels deep. */
function shapesOf(failure: unknown): ErrorShape[] {
  const shapes: ErrorShape[] = [];
  const pending: unknown[] = [failure];
  while (pending.length > 0 && shapes.length < 8) {
    const next = pending.shift();
    if (!next || typeof next !== 'object' || shapes.includes(next)) continue;
    const shape = next as ErrorShape & { cause?: unknown; meta?: { driverAdapterError?: unknown } };
    shapes.push(shape);
    pending.push(shape.cause, shape.meta?.driverAdapterError);
  }
  return shapes;
}
