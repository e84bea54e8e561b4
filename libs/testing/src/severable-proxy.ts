import net from 'node:net';

/**
 * A loopback TCP proxy in front of a dependency (Postgres, Redis) that a test can sever, silence and restore, so an
 * outage is simulated without stopping the shared server: `sever()` destroys every open connection and refuses new
 * ones (as a stopped server does); `silence()` destroys every open connection, then accepts new ones and never answers
 * them (as an unreachable host does: no refusal, no reset, only the kernel's TCP timeout); `freeze()` does the same
 * without dropping the open connections, which stay open and carry nothing more either way (a server that stopped
 * answering mid-query: paused, partitioned away, or its host frozen); `restore()` proxies again.
 */
export interface SeverableProxy {
  /** The proxy's port on 127.0.0.1. */
  port: number;
  /** `target` with its host and port replaced by the proxy's (a postgresql:// or redis:// URL). */
  urlFor(target: string): string;
  sever(): void;
  silence(): void;
  freeze(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startSeverableProxy(targetHost: string, targetPort: number): Promise<SeverableProxy> {
  const open = new Set<net.Socket>();
  const proxied = new Set<[net.Socket, net.Socket]>();
  let state: 'open' | 'severed' | 'silent' = 'open';
  const server = net.createServer((client) => {
    if (state === 'severed') {
      client.destroy();
      return;
    }
    if (state === 'silent') {
      open.add(client);
      client.on('error', () => undefined).on('close', () => open.delete(client));
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    open.add(client);
    open.add(upstream);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    proxied.add(pair);
    const forget = (): void => {
      proxied.delete(pair);
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', forget).on('close', forget);
    upstream.on('error', forget).on('close', forget);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const dropAll = (): void => {
    for (const socket of open) socket.destroy();
    open.clear();
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    urlFor(target) {
      const url = new URL(target);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    sever() {
      state = 'severed';
      dropAll();
    },
    silence() {
      state = 'silent';
      dropAll();
    },
    freeze() {
      state = 'silent';
      for (const [client, upstream] of proxied) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    restore() {
      state = 'open';
      // Connections accepted while silent were never proxied: their callers must reconnect.
      dropAll();
    },
    close() {
      state = 'severed';
      dropAll();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
