import { describeError } from './api-exception.filter';
import { isDatabaseUnavailable } from './database-unavailable';

/** An error as a library builds it: a message and its own fields. */
function failure(message: string, fields: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), fields);
}

describe('isDatabaseUnavailable', () => {
  it.each([
    ['Prisma cannot reach the server (P1001)', failure("Can't reach database server", { name: 'PrismaClientKnownRequestError', code: 'P1001' })],
    ['Prisma timed out reaching it (P1002)', failure('timed out', { name: 'PrismaClientKnownRequestError', code: 'P1002' })],
    ['the server closed the connection (P1017)', failure('Server has closed the connection.', { name: 'PrismaClientKnownRequestError', code: 'P1017' })],
    ['no pooled connection in time (P2024)', failure('Timed out fetching a new connection', { name: 'PrismaClientKnownRequestError', code: 'P2024' })],
    ['Prisma could not start', failure('Authentication failed', { name: 'PrismaClientInitializationError' })],
    ['a driver adapter error', failure('DriverAdapterError', { name: 'DriverAdapterError', cause: { kind: 'DatabaseNotReachable', host: '127.0.0.1' } })],
    [
      'a driver adapter error wrapped by Prisma',
      failure('Raw query failed', { code: 'P2010', meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'postgres', code: '57P01' } } } }),
    ],
    ['a refused connection from pg', failure('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED', syscall: 'connect', errno: -111 })],
    ['a reset connection from pg', failure('read ECONNRESET', { code: 'ECONNRESET', syscall: 'read', errno: -104 })],
    ['a connection pg saw end', failure('Connection terminated unexpectedly')],
    ["pg's connect timeout", failure('Connection terminated due to connection timeout')],
    ["pg-pool's acquire timeout", failure('timeout exceeded when trying to connect')],
    ["pg's connect timeout (connectionTimeoutMillis on the client)", failure('timeout expired')],
    ["a statement the server never answered (pg's query_timeout)", failure('Query read timeout')],
    ['Postgres shutting down (57P01)', failure('terminating connection due to administrator command', { code: '57P01', severity: 'FATAL' })],
    ['Postgres starting up (57P03)', failure('the database system is starting up', { code: '57P03', severity: 'FATAL' })],
    ['Postgres out of connections (53300)', failure('sorry, too many clients already', { code: '53300', severity: 'FATAL' })],
    ['a connection exception (08006)', failure('connection failure', { code: '08006', severity: 'FATAL' })],
  ])('is true for %s', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation (P2002)', failure('Unique constraint failed', { name: 'PrismaClientKnownRequestError', code: 'P2002' })],
    ['a refused row (23505)', failure('duplicate key value', { code: '23505', severity: 'ERROR' })],
    ['a syntax error (42601)', failure('syntax error', { code: '42601', severity: 'ERROR' })],
    ['a record not found (P2025)', failure('not found', { name: 'PrismaClientKnownRequestError', code: 'P2025' })],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['nothing at all', undefined],
  ])('is false for %s', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('makes the answer a 503 with Retry-After in the error shape, never a 500', () => {
    const answer = describeError(failure('Server has closed the connection.', { code: 'P1017' }), '/search');
    expect(answer).toEqual({
      status: 503,
      body: { detail: { error: expect.stringMatching(/^Service temporarily unavailable: the database cannot be reached/) } },
      headers: { 'Retry-After': expect.stringMatching(/^[1-9][0-9]*$/) },
    });
  });
});
