import ipaddr from 'ipaddr.js';

/**
 * Which destinations outbound requests may reach besides the public internet.
 * `allowCidrs` is empty in production; tests and benchmarks open loopback fixture servers with it.
 */
export interface EgressPolicy {
  allowCidrs: string[];
}

type ParsedCidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

const parsedCidrCache = new Map<string, ParsedCidr>();

function parseCidr(cidr: string): ParsedCidr {
  const cached = parsedCidrCache.get(cidr);
  if (cached) return cached;
  // A bare address means that single address.
  const parsed: ParsedCidr = cidr.includes('/')
    ? ipaddr.parseCIDR(cidr)
    : [ipaddr.parse(cidr), ipaddr.parse(cidr).kind() === 'ipv4' ? 32 : 128];
  parsedCidrCache.set(cidr, parsed);
  return parsed;
}

/**
 * The policy of an app's validated config (FETCH_ALLOW_CIDRS, comma-separated CIDRs); a malformed entry stops
 * start-up instead of silently opening nothing or too much.
 */
export function egressPolicyFromConfig(config: { FETCH_ALLOW_CIDRS: string }): EgressPolicy {
  const allowCidrs = config.FETCH_ALLOW_CIDRS
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  for (const cidr of allowCidrs) {
    try {
      parseCidr(cidr);
    } catch {
      throw new Error(`FETCH_ALLOW_CIDRS: "${cidr}" is not a CIDR such as 127.0.0.1/32 or ::1/128`);
    }
  }
  return { allowCidrs };
}

/**
 * True when an outbound connection to `address` is permitted: a public unicast address, or one inside
 * the policy's allow list. IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry.
 */
export function isAddressAllowed(address: string, policy: EgressPolicy): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.range() === 'unicast') return true;
  return policy.allowCidrs.some((cidr) => {
    const [range, prefixLength] = parseCidr(cidr);
    return range.kind() === parsed.kind() && parsed.match(range, prefixLength);
  });
}
