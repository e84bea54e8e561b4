import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The lowest port of the kernel's ephemeral range, where the sockets bound to port 0 land (other tests' servers) and
 * every outgoing connection takes its local port; 32768 where /proc does not say.
 */
function ephemeralPortsFrom(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}

function canListen(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((done) => {
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });
}

/**
 * A loopback port that nothing listens on, nor on the ports `offsets` above it, for a process started after it is
 * picked (a server of its own, a Redis a test stops and starts again) or for a connection that must be refused. It is
 * drawn below the ephemeral range: a port picked by listening on port 0 and closing is one the kernel may hand to any
 * outgoing connection (to Redis, to Postgres) before the process binds it, which then fails with EADDRINUSE.
 */
export async function freePortBelowEphemeralRange(offsets: readonly number[] = [0]): Promise<number> {
  // Above the ports people run services on (3000, 5432, 6379, 8080, …).
  const from = 10_000;
  const highestOffset = Math.max(0, ...offsets);
  const below = Math.max(from + 1_000, ephemeralPortsFrom() - highestOffset - 1);
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = from + Math.floor(Math.random() * (below - from));
    const free = await Promise.all(offsets.map((offset) => canListen(port + offset)));
    if (free.every(Boolean)) return port;
  }
  throw new Error(`found no free loopback port below ${below} (with ${offsets.join(', ')} above it)`);
}
