import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { EgressPolicy } from './egress-policy';
import { bareHostname } from './destination-guard';

/** A host's addresses, as the system resolver (or a test's stand-in for DNS) answers them. */
export type HostResolver = (host: string) => Promise<string[]>;

const systemResolver: HostResolver = async (host) => (await lookup(host, { all: true })).map((entry) => entry.address);

export interface OperatorEndpointOptions {
  /** How long one resolution is reused; short, so a recreated container's new address is picked up soon. */
  ttlMs?: number;
  resolve?: HostResolver;
}

interface Resolution {
  addresses: string;
  policy: EgressPolicy;
  expiresAt: number;
}

/**
 * A server the operator configured (SEARXNG_URL, LLM_BASE_URL): trusted configuration, so its host's addresses are
 * allowed even when private or loopback (a SearXNG container, a local llama.cpp or Ollama), on top of the base
 * policy. Caller-supplied URLs never get this policy; everything else stays guarded.
 *
 * The host is resolved again once the last resolution is older than the TTL, and a failed lookup is not kept: a
 * container recreated with a new address, or a name that did not resolve yet at the first request, must not switch
 * the feature off until the process restarts.
 */
export class OperatorEndpoint {
  static readonly DEFAULT_TTL_MS = 5_000;
  private readonly host: string;
  private resolution?: Resolution;

  constructor(
    endpoint: string,
    private readonly base: EgressPolicy,
    private readonly options: OperatorEndpointOptions = {},
  ) {
    this.host = bareHostname(new URL(endpoint).hostname);
  }

  /** The policy for the next request to the endpoint; rejects when the host does not resolve now. */
  async policy(): Promise<EgressPolicy> {
    const now = Date.now();
    if (this.resolution && now < this.resolution.expiresAt) return this.resolution.policy;
    const addresses = isIP(this.host) ? [this.host] : await (this.options.resolve ?? systemResolver)(this.host);
    const key = [...addresses].sort().join(',');
    // The same policy object while the addresses stay the same: safe-fetch keeps one connection pool per policy.
    const policy = this.resolution?.addresses === key ? this.resolution.policy : { ...this.base, allowCidrs: [...this.base.allowCidrs, ...addresses] };
    this.resolution = { addresses: key, policy, expiresAt: now + (this.options.ttlMs ?? OperatorEndpoint.DEFAULT_TTL_MS) };
    return policy;
  }
}
