import { Agent, request } from 'node:http';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';

/** A GET through `agent`; resolves with its status and whether it went over a connection the agent kept. */
function get(agent: Agent, url: string): Promise<{ status: number; reusedSocket: boolean }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { agent }, (response) => {
      response.resume();
      response.once('end', () => resolve({ status: response.statusCode ?? 0, reusedSocket: outgoing.reusedSocket }));
    });
    outgoing.once('error', reject);
    outgoing.end();
  });
}

describe('idle keep-alive connections', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway();
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
  });

  it('stays open past the 5 s Node-based clients keep theirs, so the next request on it is answered, not reset', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get(agent, `${gateway.baseUrl}/health`);
      expect(first.reusedSocket).toBe(false);
      // Past Node's own 5 s: a gateway closing then would leave the agent nothing to reuse.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const second = await get(agent, `${gateway.baseUrl}/health`);
      expect(second).toEqual({ status: first.status, reusedSocket: true });
    } finally {
      agent.destroy();
    }
  }, 30_000);
});
