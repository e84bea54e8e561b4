import ipaddr from 'ipaddr.js';

interface IpBlock {
  cidr: string;
  except?: string[];
}

export interface EgressRule {
  to?: { ipBlock?: IpBlock; podSelector?: unknown; namespaceSelector?: unknown }[];
  ports?: { protocol?: string; port?: number | string }[];
}

function inCidr(address: string, cidr: string): boolean {
  const parsed = ipaddr.parse(address);
  const [range, bits] = ipaddr.parseCIDR(cidr);
  return parsed.kind() === range.kind() && parsed.match(range, bits);
}

/**
 * Whether a NetworkPolicy's egress rules let a pod reach `address` by its IP (as a fetch of an arbitrary URL would):
 * a rule allows it when one of its ipBlocks contains the address outside every `except`. Rules that select pods or
 * namespaces never match a bare address, which is how Kubernetes applies them to traffic leaving the cluster.
 */
export function egressAllowsAddress(rules: EgressRule[], address: string): boolean {
  return rules.some((rule) =>
    (rule.to ?? []).some(({ ipBlock }) => ipBlock !== undefined && inCidr(address, ipBlock.cidr) && !(ipBlock.except ?? []).some((cidr) => inCidr(address, cidr))),
  );
}
