import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { EgressPolicy } from '@sift/safe-fetch';

/**
 * The egress policy for the model server the operator configured (LLM_BASE_URL): trusted configuration, so
 * its host's addresses are allowed even when private or loopback (a local llama.cpp or Ollama), on top of the
 * base policy.
 */
export async function operatorEndpointPolicy(endpoint: string, base: EgressPolicy): Promise<EgressPolicy> {
  const host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
  return { ...base, allowCidrs: [...base.allowCidrs, ...addresses] };
}
