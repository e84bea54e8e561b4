import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isAddressAllowed, type EgressPolicy } from './egress-policy';
import { FetchError } from './fetch-error';
import { parsePublicUrl } from './public-url';

/** The WHATWG parser keeps IPv6 literals in brackets; sockets and DNS want them bare. */
export function bareHostname(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

function blocked(url: string, host: string, address: string): FetchError {
  const shown = host === address ? host : `${host} (${address})`;
  return new FetchError('blocked_address', url, `${shown} is not a public internet address and cannot be fetched`);
}

/**
 * Resolves `hostname` to the one address to connect to, refusing when any of its addresses is forbidden:
 * a name that resolves to both a public and a private address is treated as hostile.
 */
export async function resolveAllowedAddress(hostname: string, policy: EgressPolicy, url: string): Promise<string> {
  const host = bareHostname(hostname);
  if (isIP(host) !== 0) {
    if (!isAddressAllowed(host, policy)) throw blocked(url, host, host);
    return host;
  }
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch (error) {
    throw new FetchError('network', url, `The host ${host} could not be resolved`, { cause: error });
  }
  if (addresses.length === 0) throw new FetchError('network', url, `The host ${host} has no address`);
  const forbidden = addresses.find(({ address }) => !isAddressAllowed(address, policy));
  if (forbidden) throw blocked(url, host, forbidden.address);
  return addresses[0].address;
}

/**
 * A fast pre-check (for an early 403) that the URL's host resolves to allowed addresses only.
 * Not a guarantee: DNS may answer differently at connect time, where the check is repeated.
 */
export async function assertPublicDestination(url: string, policy: EgressPolicy): Promise<void> {
  const parsed = parsePublicUrl(url);
  await resolveAllowedAddress(parsed.hostname, policy, url);
}

/** The last line of defence: the peer a socket actually reached. */
export function assertConnectedAddressAllowed(remoteAddress: string | undefined, policy: EgressPolicy, url: string): void {
  if (remoteAddress === undefined || !isAddressAllowed(remoteAddress, policy)) {
    throw blocked(url, remoteAddress ?? 'unknown peer', remoteAddress ?? 'unknown peer');
  }
}
