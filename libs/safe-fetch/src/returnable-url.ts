import { isIP } from 'node:net';
import { bareHostname } from './destination-guard';
import { isAddressAllowed, type EgressPolicy } from './egress-policy';

/**
 * The addresses a name under `localhost` stands for (RFC 6761: resolvers answer loopback, never ask DNS); which of the
 * two a system's resolver gives varies, so the name is allowed where loopback is (tests' fixtures), refused elsewhere.
 */
const LOOPBACK_ADDRESSES = ['127.0.0.1', '::1'];

/**
 * Namespaces kept for private networks (RFC 6762 `local`, RFC 8375 `home.arpa`, ICANN's `internal`): no name in them
 * is a public page, whatever it resolves to inside some network (`metadata.google.internal` is a cloud's metadata
 * server). Their addresses are unknown without asking a resolver, so no allowance can be checked against them.
 */
const PRIVATE_NAMESPACES = ['local', 'home.arpa', 'internal'];

function isUnder(hostname: string, namespace: string): boolean {
  return hostname === namespace || hostname.endsWith(`.${namespace}`);
}

/**
 * Whether a URL an upstream handed over (a search engine's result, its image) may be handed on to a caller: the
 * egress policy's address rules applied to what Sift returns, as they are to what it fetches. An http(s) URL without
 * credentials whose host is not an address the policy refuses. IP literals are judged in whatever notation they were
 * written (the WHATWG parser turns `2130706433`, `0x7f.1` and `[::ffff:7f00:1]` into the address they name), and names
 * whose addresses are fixed without DNS (`localhost`, `*.localhost`) as those addresses; other names are not resolved,
 * since nothing is fetched here (a fetch of the URL later goes through the connect-time check as any other).
 */
export function isReturnableUrl(raw: string, policy: EgressPolicy): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username !== '' || url.password !== '') return false;
  // The parser has lower-cased the name; a fully qualified name's trailing dot names the same host.
  const host = bareHostname(url.hostname).replace(/\.+$/, '');
  if (host === '') return false;
  if (isIP(host) !== 0) return isAddressAllowed(host, policy);
  if (isUnder(host, 'localhost')) return LOOPBACK_ADDRESSES.some((address) => isAddressAllowed(address, policy));
  return !PRIVATE_NAMESPACES.some((namespace) => isUnder(host, namespace));
}
