import { connect as connectTcp, isIP, type Socket } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { assertConnectedAddressAllowed, bareHostname, resolveAllowedAddress } from './destination-guard';
import type { EgressPolicy } from './egress-policy';

/**
 * The connection-time bound (TCP and TLS handshakes): a host that takes longer is down or overloaded, and waiting for
 * it would spend the caller's whole deadline, and a worker slot, on a page that is unlikely to come. Exported for the
 * error message.
 */
export const CONNECT_TIMEOUT_MS = 3_000;
const connectTimeoutMs = CONNECT_TIMEOUT_MS;

/**
 * An undici connector that decides where to connect itself: it resolves the name, checks every address
 * against the policy and connects to the checked address, then checks the socket's peer again. Checking at
 * connect time (not before the request) is what defeats DNS rebinding; IP literals in any notation arrive
 * here already normalised by the WHATWG parser and go through the same check.
 */
export function createGuardedConnector(policy: EgressPolicy): buildConnector.connector {
  const connectToAddress = buildConnector({ timeout: connectTimeoutMs });
  return (options, callback) => {
    const origin = `${options.protocol}//${options.host}`;
    resolveAllowedAddress(options.hostname, policy, origin).then(
      (address) => {
        const hostname = bareHostname(options.hostname);
        // TLS must still present and verify the name, not the address we substituted for it.
        const servername = options.servername ?? (isIP(hostname) === 0 ? hostname : undefined);
        connectToAddress({ ...options, hostname: address, servername }, (error, socket) => {
          if (error || socket === null) {
            callback(error ?? new Error('connection failed'), null);
            return;
          }
          try {
            assertConnectedAddressAllowed(socket.remoteAddress, policy, origin, hostname);
          } catch (refusal) {
            socket.destroy();
            callback(refusal as Error, null);
            return;
          }
          callback(null, socket);
        });
      },
      (refusal: Error) => callback(refusal, null),
    );
  };
}

/**
 * Margin kept before a server's announced keep-alive timeout. undici's default (2 s) leaves nothing of a short
 * announcement (`Keep-Alive: timeout=1`, as HAProxy setups and small servers send): every request then opened a
 * new connection, which cost a crawl of a site more CPU in connects and closes than in its fetches. Half a second
 * still covers the transport; a request that loses the race fails like any reset connection.
 */
const KEEP_ALIVE_MARGIN_MS = 500;

/** The undici dispatcher every safe-fetch request goes through. */
export function createGuardedAgent(policy: EgressPolicy): Agent {
  return new Agent({ connect: createGuardedConnector(policy), connections: 64, keepAliveTimeoutThreshold: KEEP_ALIVE_MARGIN_MS });
}

/** A raw TCP socket for the browser proxy's CONNECT tunnels, under the same checks as the connector. */
export async function connectGuardedSocket(hostname: string, port: number, policy: EgressPolicy): Promise<Socket> {
  const origin = `tcp://${hostname}:${port}`;
  const address = await resolveAllowedAddress(hostname, policy, origin);
  const socket = await new Promise<Socket>((resolve, reject) => {
    const pending = connectTcp({ host: address, port, timeout: connectTimeoutMs });
    pending.once('connect', () => {
      pending.setTimeout(0);
      resolve(pending);
    });
    pending.once('timeout', () => pending.destroy(new Error(`connecting to ${hostname}:${port} timed out`)));
    pending.once('error', reject);
  });
  try {
    assertConnectedAddressAllowed(socket.remoteAddress, policy, origin, hostname);
  } catch (refusal) {
    socket.destroy();
    throw refusal;
  }
  return socket;
}
