import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** Route path (without query) → handler. Unknown paths answer 404. */
export type FixtureRoutes = Record<string, (request: IncomingMessage, response: ServerResponse) => void>;

export interface FixtureServer {
  /** Origin of the first listening address, e.g. `http://127.0.0.2:40123`. */
  url: string;
  port: number;
  /** Every request received, as `METHOD path`, across all addresses. */
  readonly requests: string[];
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

function originOf(host: string, port: number): string {
  return host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}

/**
 * A loopback web server for integration tests of the egress path. Listening on several hosts (e.g.
 * 127.0.0.1 and ::1) with one port lets a test count hits on "internal" services however they are addressed.
 */
export async function startFixtureServer(routes: FixtureRoutes, hosts: string[] = ['127.0.0.1']): Promise<FixtureServer> {
  const requests: string[] = [];
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    requests.push(`${request.method} ${request.url}`);
    const route = routes[new URL(request.url ?? '/', 'http://fixture').pathname];
    if (route) return route(request, response);
    response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
  };
  const servers: Server[] = [];
  let port = 0;
  for (const host of hosts) {
    const server = createServer(handle);
    servers.push(server);
    port = await listen(server, port, host);
  }
  return {
    url: originOf(hosts[0], port),
    port,
    requests,
    close: async () => {
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      );
    },
  };
}
