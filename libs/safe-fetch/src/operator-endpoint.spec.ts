import { isAddressAllowed } from './egress-policy';
import { OperatorEndpoint } from './operator-endpoint';

/** A resolver whose answers the test changes, as DNS changes when a container is recreated. */
function changingResolver(initial: string[] | Error) {
  const state = { answer: initial, lookups: 0 };
  const resolve = async () => {
    state.lookups += 1;
    if (state.answer instanceof Error) throw state.answer;
    return state.answer;
  };
  return { state, resolve };
}

describe('OperatorEndpoint', () => {
  it('allows the address the host has now, not the one it had when first resolved', async () => {
    const { state, resolve } = changingResolver(['172.18.0.5']);
    const endpoint = new OperatorEndpoint('http://searxng:8080', { allowCidrs: [] }, { ttlMs: 0, resolve });
    expect(isAddressAllowed('172.18.0.5', await endpoint.policy())).toBe(true);
    state.answer = ['172.18.0.9'];
    const after = await endpoint.policy();
    expect(isAddressAllowed('172.18.0.9', after)).toBe(true);
    expect(isAddressAllowed('172.18.0.5', after)).toBe(false);
  });

  it('does not keep a failed lookup: the next request resolves again', async () => {
    const { state, resolve } = changingResolver(Object.assign(new Error('getaddrinfo ENOTFOUND searxng'), { code: 'ENOTFOUND' }));
    const endpoint = new OperatorEndpoint('http://searxng:8080', { allowCidrs: [] }, { resolve });
    await expect(endpoint.policy()).rejects.toThrow('ENOTFOUND');
    state.answer = ['10.0.3.4'];
    expect(isAddressAllowed('10.0.3.4', await endpoint.policy())).toBe(true);
    expect(state.lookups).toBe(2);
  });

  it('reuses one resolution within the TTL and one policy object while the addresses stay the same', async () => {
    const { state, resolve } = changingResolver(['10.0.3.4', '10.0.3.5']);
    const cached = new OperatorEndpoint('http://llm:8000/v1', { allowCidrs: ['127.0.0.1/32'] }, { ttlMs: 60_000, resolve });
    const first = await cached.policy();
    expect(await cached.policy()).toBe(first);
    expect(state.lookups).toBe(1);
    expect(first.allowCidrs).toEqual(['127.0.0.1/32', '10.0.3.4', '10.0.3.5']);

    const expiring = new OperatorEndpoint('http://llm:8000/v1', { allowCidrs: [] }, { ttlMs: 0, resolve });
    const before = await expiring.policy();
    state.answer = ['10.0.3.5', '10.0.3.4'];
    // Same addresses in another order: the same policy, so safe-fetch's connection pool for it is kept.
    expect(await expiring.policy()).toBe(before);
  });

  it('needs no lookup for an address literal', async () => {
    const { state, resolve } = changingResolver(['203.0.113.1']);
    const endpoint = new OperatorEndpoint('http://[fd00::7]:8080', { allowCidrs: [] }, { resolve });
    expect(isAddressAllowed('fd00::7', await endpoint.policy())).toBe(true);
    expect(state.lookups).toBe(0);
  });
});
