import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { EgressPolicy } from './egress-policy';
import { bareHostname } from './destination-guard';

/**
 * The egress policy for a server the operator configured (SEARXNG_URL, LLM_BASE_URL): trusted configuration,
 * so its host's addresses are allowed even when private or loopback (a SearXNG container, a local llama.cpp or
 * Ollama), on top of the base policy. Caller-supplied URLs never get this policy; everything else stays guarded.
 */
export async function operatorEndpointPolicy(endpoint: string, base: EgressPolicy): Promise<EgressPolicy> {
  const host = bareHostname(new URL(endpoint).hostname);
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
  return { ...base, allowCidrs: [...base.allowCidrs, ...addresses] };
}
