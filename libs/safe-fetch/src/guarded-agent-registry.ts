import type { Agent } from 'undici';
import type { EgressPolicy } from './egress-policy';
import { createGuardedAgent } from './guarded-connector';

// One connection pool per policy object, so keep-alive connections are reused across fetches
// while two policies never share a connection that only one of them allowed.
const agents = new WeakMap<EgressPolicy, Agent>();

export function guardedAgentFor(policy: EgressPolicy): Agent {
  let agent = agents.get(policy);
  if (!agent) {
    agent = createGuardedAgent(policy);
    agents.set(policy, agent);
  }
  return agent;
}
