import { execFileSync } from 'node:child_process';
import { freePortBelowEphemeralRange } from './free-port';

/**
 * A Redis of one test's own on a free loopback port, without persistence as compose runs it, for outage tests that
 * stop, restart or flush it: the shared Redis is never touched.
 */
export interface OwnRedisServer {
  port: number;
  url: string;
  /** Starts it (again, empty after a stop: nothing is saved). */
  start(): void;
  /** Stops it without saving. */
  stop(): void;
}

export async function startOwnRedisServer(): Promise<OwnRedisServer> {
  // Stopped and started again on the same port: one no outgoing connection can have taken meanwhile.
  const port = await freePortBelowEphemeralRange();
  const start = (): void => {
    execFileSync('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'yes']);
    for (let attempt = 0; attempt < 50; attempt += 1) {
      try {
        if (execFileSync('redis-cli', ['-p', String(port), 'ping']).toString().trim() === 'PONG') return;
      } catch {
        // not up yet
      }
      execFileSync('sleep', ['0.1']);
    }
    throw new Error(`redis-server on ${port} did not start`);
  };
  const stop = (): void => {
    try {
      execFileSync('redis-cli', ['-p', String(port), 'shutdown', 'nosave']);
    } catch {
      // redis-cli reports the dropped connection of a shutdown as an error
    }
  };
  start();
  return { port, url: `redis://127.0.0.1:${port}`, start, stop };
}
