import { randomUUID } from 'node:crypto';
import { BillingService, type ReserveInput } from '@sift/billing';
import { callGateway, createTestAccount, createTestKey } from '@sift/testing';
import { ApiError } from '../http/api-error';
import { withBillingErrors } from './billing-error.mapper';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';

/**
 * The gateway's BillingService (as its container wires it, on the gateway's own Prisma pool) against real
 * Postgres. Charges are made the way a fixed-cost route (search) makes them without needing its providers:
 * reserve the cost, then settle it, through withBillingErrors, which turns the ledger's refusals into the HTTP
 * errors the route would send.
 */
describe('Billing through the gateway container (real Postgres)', () => {
  let gateway: TestGateway;
  let billing: BillingService;

  beforeAll(async () => {
    gateway = await startTestGateway();
    billing = gateway.app.get(BillingService);
  });

  afterAll(async () => {
    await gateway.close();
  });

  async function givenKey(plan: string, options: { paygoLimit?: number; creditLimit?: number } = {}) {
    const account = await createTestAccount(gateway.prisma, { plan, paygoLimit: options.paygoLimit, name: 'billing' });
    const key = await createTestKey(gateway.prisma, account.id, { creditLimit: options.creditLimit });
    const charge = (credits: number, overrides: Partial<ReserveInput> & { kind?: string } = {}) =>
      withBillingErrors(async () => {
        const reservation = await billing.reserve({
          accountId: account.id,
          apiKeyId: key.id,
          requestId: randomUUID(),
          endpoint: 'search',
          maximumCredits: credits,
          minimumCredits: credits,
          holdMilliseconds: 60_000,
          ...overrides,
        });
        return billing.settle(reservation, [{ kind: overrides.kind ?? 'search', credits }]);
      });
    return { accountId: account.id, ...key, charge };
  }

  async function ledgerSum(accountId: string): Promise<number> {
    const sum = await gateway.prisma.creditLedger.aggregate({ where: { accountId }, _sum: { planCredits: true, paygoCredits: true } });
    return (sum._sum.planCredits ?? 0) + (sum._sum.paygoCredits ?? 0);
  }

  async function refusal(work: Promise<unknown>): Promise<{ status: number; body: unknown }> {
    const error = await work.then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ApiError);
    return { status: (error as ApiError).getStatus(), body: (error as ApiError).getResponse() };
  }

  it('432 when a charge would pass the key limit, with the upgrade hint in detail.error', async () => {
    const { charge, accountId } = await givenKey('growth', { creditLimit: 5 });
    await charge(4);
    expect(await refusal(charge(2))).toEqual({ status: 432, body: { detail: { error: expect.stringMatching(/API key usage limit.*upgrade your plan or contact support/i) } } });
    await charge(1);
    expect((await refusal(charge(1))).status).toBe(432);
    expect(await ledgerSum(accountId)).toBe(5);
  });

  it("432 when the plan's monthly allowance is used up and pay-as-you-go is off", async () => {
    const { charge, accountId } = await givenKey('researcher');
    await charge(1000);
    expect(await refusal(charge(1))).toEqual({ status: 432, body: { detail: { error: expect.stringMatching(/plan's set usage limit/) } } });
    expect(await ledgerSum(accountId)).toBe(1000);
  });

  it('433 when pay-as-you-go would pass its limit; the plan spills into it up to the limit', async () => {
    const { charge, accountId, apiKey } = await givenKey('project', { paygoLimit: 5 });
    await charge(3998);
    const spill = await charge(4);
    expect(spill).toMatchObject({ charged: 4, planCredits: 2, paygoCredits: 2 });
    await charge(3);
    expect(await refusal(charge(1))).toEqual({ status: 433, body: { detail: { error: expect.stringMatching(/pay-as-you-go limit/) } } });
    expect(await ledgerSum(accountId)).toBe(4005);
    // GET /usage over HTTP shows the same split.
    const usage = await callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey });
    expect(usage.body).toMatchObject({
      key: { usage: 4005, limit: null, search_usage: 4005 },
      account: { current_plan: 'Project', plan_usage: 4000, plan_limit: 4000, paygo_usage: 5, paygo_limit: 5, search_usage: 4005 },
    });
  });

  it(
    'concurrency: 50 parallel charges against a key with 10 credits left charge exactly 10 and refuse the rest',
    async () => {
      const { charge, accountId, apiKey } = await givenKey('growth', { creditLimit: 15 });
      await charge(5);
      const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => charge(1)));
      const charged = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      expect(charged).toHaveLength(10);
      expect(refused).toHaveLength(40);
      for (const { reason } of refused) expect((reason as ApiError).getStatus()).toBe(432);
      expect(await ledgerSum(accountId)).toBe(15);
      expect(await gateway.prisma.creditLedger.count({ where: { accountId } })).toBe(11);
      const usage = await callGateway(gateway.baseUrl, 'GET', '/usage', { apiKey });
      expect(usage.body).toMatchObject({ key: { usage: 15, limit: 15 }, account: { plan_usage: 15 } });
    },
    60_000,
  );

  it(
    'no double charge: the same request id charged twice, or ten times at once, is charged once',
    async () => {
      const { charge, accountId } = await givenKey('growth');
      const requestId = randomUUID();
      const first = await charge(2, { requestId });
      const again = await charge(2, { requestId });
      expect(first).toMatchObject({ charged: 2, replayed: false });
      expect(again).toMatchObject({ charged: 2, replayed: true });
      const burstId = randomUUID();
      const burst = await Promise.all(Array.from({ length: 10 }, () => charge(1, { requestId: burstId })));
      expect(burst.filter((result) => !result.replayed)).toHaveLength(1);
      expect(await ledgerSum(accountId)).toBe(3);
      expect(await gateway.prisma.creditLedger.count({ where: { accountId } })).toBe(2);
      // A different kind of the same request (e.g. a crawl's extract part) is its own charge.
      await charge(1, { requestId, kind: 'crawl-extract' });
      expect(await ledgerSum(accountId)).toBe(4);
    },
    60_000,
  );
});
