import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { request } from 'undici';
import type { EgressPolicy } from './egress-policy';
import { FetchError } from './fetch-error';
import { guardedAgentFor } from './guarded-agent-registry';
import { connectGuardedSocket } from './guarded-connector';
import { parsePublicUrl } from './public-url';

export interface EgressProxy {
  /** `http://127.0.0.1:<port>`, for Chromium's --proxy-server. */
  url: string;
  /** Requests refused by the policy so far (tests assert on it). */
  readonly refusedCount: number;
  close(): Promise<void>;
}

/**
 * Marks an answer of this proxy itself ("blocked": the policy refused the destination; "failed": it could not be
 * reached), so the browser pool can tell it from a site's own 403 or 502 and fail the render instead of reading
 * the proxy's answer as the page. A site's own header of that name is dropped, so only the proxy can set it.
 */
export const egressRefusalHeader = 'x-sift-egress';

/**
 * The proxy's answer bodies, the same whatever the destination: they end up in a browser tab, and a page must not
 * learn from them which address a name resolved to, or even which name was refused.
 */
const refusalBodies = {
  blocked: 'This destination is not allowed: only public internet addresses can be fetched.',
  failed: 'This destination could not be reached.',
} as const;

// Hop-by-hop headers describe one connection and must not be forwarded (RFC 9110 §7.6.1).
const hopByHopHeaders = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

function forwardableHeaders(headers: IncomingMessage['headers']): Record<string, string | string[]> {
  const forwarded: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !hopByHopHeaders.has(name) && name !== egressRefusalHeader) forwarded[name] = value;
  }
  return forwarded;
}

/**
 * A loopback HTTP proxy for the browser: CONNECT tunnels for https and absolute-URI requests for http, each
 * opened through the same connect-time check as `safeFetch`. Chromium is started so that this proxy is its only
 * way out, which makes every navigation, redirect hop and subresource subject to the egress policy.
 */
export async function createEgressProxy(policy: EgressPolicy): Promise<EgressProxy> {
  let refusedCount = 0;
  const tunnels = new Set<Socket>();

  const refuse = (error: unknown): boolean => {
    if (error instanceof FetchError && (error.code === 'blocked_address' || error.code === 'invalid_url')) {
      refusedCount += 1;
      return true;
    }
    return false;
  };

  const forwardRequest = async (incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> => {
    try {
      const target = parsePublicUrl(incoming.url ?? '');
      const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
      const upstream = await request(target, {
        method: (incoming.method ?? 'GET') as 'GET',
        headers: forwardableHeaders(incoming.headers),
        body: hasBody ? (incoming as Readable) : undefined,
        dispatcher: guardedAgentFor(policy),
      });
      outgoing.writeHead(upstream.statusCode, forwardableHeaders(upstream.headers as IncomingMessage['headers']));
      upstream.body.on('error', () => outgoing.destroy());
      upstream.body.pipe(outgoing);
    } catch (error) {
      const refused = refuse(error);
      if (outgoing.headersSent) {
        outgoing.destroy();
        return;
      }
      const verdict = refused ? 'blocked' : 'failed';
      outgoing.writeHead(refused ? 403 : 502, { 'content-type': 'text/plain; charset=utf-8', [egressRefusalHeader]: verdict });
      outgoing.end(refusalBodies[verdict]);
    }
  };

  const openTunnel = async (incoming: IncomingMessage, client: Socket, head: Buffer): Promise<void> => {
    client.on('error', () => client.destroy());
    let upstream: Socket;
    try {
      const authority = new URL(`http://${incoming.url ?? ''}`);
      const port = Number(authority.port);
      if (!authority.port || port <= 0) throw new FetchError('invalid_url', incoming.url ?? '', 'CONNECT needs host:port');
      upstream = await connectGuardedSocket(authority.hostname, port, policy);
    } catch (error) {
      const refused = refuse(error);
      client.end(`HTTP/1.1 ${refused ? '403 Forbidden' : '502 Bad Gateway'}\r\n${egressRefusalHeader}: ${refused ? 'blocked' : 'failed'}\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    tunnels.add(client).add(upstream);
    const forget = () => {
      tunnels.delete(client);
      tunnels.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.once('close', forget);
    upstream.once('close', forget);
    upstream.on('error', forget);
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  };

  const server = createServer((incoming, outgoing) => void forwardRequest(incoming, outgoing));
  server.on('connect', (incoming: IncomingMessage, client: Socket, head: Buffer) => void openTunnel(incoming, client, head));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('egress proxy did not bind a TCP port');

  return {
    url: `http://127.0.0.1:${address.port}`,
    get refusedCount() {
      return refusedCount;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of tunnels) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
