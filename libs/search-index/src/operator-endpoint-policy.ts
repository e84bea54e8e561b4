import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { EgressPolicy } from '@sift/safe-fetch';

/**
 * The egress policy for a service the operator configured (SEARXNG_URL): the operator's URL is trusted, so
 * its host's addresses are allowed even when private or loopback, on top of the base policy. Everything else
 * stays as guarded as before.
 */
export async function operatorEndpointPolicy(endpoint: string, base: EgressPolicy): Promise<EgressPolicy> {
  const host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
  return { ...base, allowCidrs: [...base.allowCidrs, ...addresses] };
}
