import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isAddressAllowed, type EgressPolicy } from './egress-policy';
import { FetchError } from './fetch-error';
import { parsePublicUrl } from './public-url';

/** The WHATWG parser keeps IPv6 literals in brackets; sockets and DNS want them bare. */
export function bareHostname(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * The refusal names the host as the caller wrote it, never the address it resolved to: a resolved address in an
 * error (or in a page the browser shows) would turn the guard into an oracle of the internal DNS.
 */
export function blockedDestination(url: string, host: string): FetchError {
  return new FetchError('blocked_address', url, `${host} is not allowed: only public internet addresses can be fetched`);
}

/**
 * Resolves `hostname` to the one address to connect to, refusing when any of its addresses is forbidden:
 * a name that resolves to both a public and a private address is treated as hostile.
 */
export async function resolveAllowedAddress(hostname: string, policy: EgressPolicy, url: string): Promise<string> {
  const host = bareHostname(hostname);
  if (isIP(host) !== 0) {
    if (!isAddressAllowed(host, policy)) throw blockedDestination(url, host);
    return host;
  }
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch (error) {
    throw new FetchError('dns', url, `The host ${host} could not be resolved`, { cause: error });
  }
  if (addresses.length === 0) throw new FetchError('dns', url, `The host ${host} has no address`);
  const forbidden = addresses.find(({ address }) => !isAddressAllowed(address, policy));
  if (forbidden) throw blockedDestination(url, host);
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
export function assertConnectedAddressAllowed(remoteAddress: string | undefined, policy: EgressPolicy, url: string, hostname: string): void {
  if (remoteAddress === undefined || !isAddressAllowed(remoteAddress, policy)) throw blockedDestination(url, hostname);
}
