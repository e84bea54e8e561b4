import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackServer {
  url: string;
  close(): Promise<void>;
}

/** A loopback web server (the outside world of a test: a site, a SearXNG): one handler per path. */
export async function startLoopbackServer(routes: Record<string, (request: IncomingMessage, response: ServerResponse) => void>): Promise<LoopbackServer> {
  const server: Server = createServer((request, response) => {
    const route = routes[new URL(request.url ?? '/', 'http://loopback').pathname];
    if (route) route(request, response);
    else response.writeHead(404).end('not found');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
