import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AccountRepository,
  ApiKeyRepository,
  CreditLedgerRepository,
  ProjectRepository,
  createPrismaClient,
  type PrismaClient,
} from '@sift/persistence';
import { CreditLimitError, PaygoLimitError } from './billing-errors';
import { BillingService, type ChargeLine, type ReserveInput } from './billing.service';
import { meteredCreditsBound, type BillingMeterName } from './credit-costs';

const HOLD_MS = 60_000;

describe('BillingService: reserve → settle / release (real Postgres)', () => {
  let prisma: PrismaClient;
  let billing: BillingService;
  let accounts: AccountRepository;
  let apiKeys: ApiKeyRepository;

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 10);
    accounts = new AccountRepository(prisma);
    apiKeys = new ApiKeyRepository(prisma);
    billing = serviceOn(prisma);
  });

  afterAll(async () => {
    await prisma.$disconnect();
  });

  function serviceOn(client: PrismaClient): BillingService {
    return new BillingService({
      ledger: new CreditLedgerRepository(client),
      accounts: new AccountRepository(client),
      apiKeys: new ApiKeyRepository(client),
      projects: new ProjectRepository(client),
    });
  }

  type ChargeOverrides = Partial<Omit<ReserveInput, 'maximumCredits' | 'minimumCredits'>> & { kind?: string };

  async function givenAccount(planId: string, options: { paygoLimit?: number | null; keyLimit?: number | null } = {}) {
    const account = await accounts.create({ name: `billing-${randomUUID()}`, planId, paygoLimit: options.paygoLimit ?? null });
    const key = await apiKeys.create(account.id, {
      name: 'test',
      keyHash: randomUUID(),
      prefix: 'sift-dev-test',
      lastFour: 'test',
      environment: 'dev',
      creditLimit: options.keyLimit ?? null,
    });
    const reserve = (maximumCredits: number, minimumCredits = maximumCredits, overrides: ChargeOverrides = {}, service = billing) =>
      service.reserve({
        accountId: account.id,
        apiKeyId: key.id,
        requestId: randomUUID(),
        endpoint: 'search',
        holdMilliseconds: HOLD_MS,
        maximumCredits,
        minimumCredits,
        ...overrides,
      });
    /** A fixed charge the way a search makes it: reserve its cost, then settle it. */
    const charge = async (credits: number, overrides: ChargeOverrides = {}, service = billing) => {
      const reservation = await reserve(credits, credits, overrides, service);
      return service.settle(reservation, [{ kind: overrides.kind ?? 'search', credits }]);
    };
    /** A metered charge the way extract and map make it: reserve the bound of the units, settle the successes. */
    const chargeMetered = async (meter: BillingMeterName, units: number, requestId = randomUUID()) => {
      const reservation = await reserve(meteredCreditsBound(meter, units), meteredCreditsBound(meter, 1), { requestId, endpoint: 'extract' });
      return billing.settle(reservation, [{ kind: `extract:${meter}`, meter, units }]);
    };
    return { account, key, reserve, charge, chargeMetered };
  }

  async function ledgerSum(accountId: string) {
    const sum = await prisma.creditLedger.aggregate({ where: { accountId }, _sum: { planCredits: true, paygoCredits: true } });
    return { plan: sum._sum.planCredits ?? 0, paygo: sum._sum.paygoCredits ?? 0 };
  }

  async function meterUnits(accountId: string, meter: BillingMeterName) {
    const row = await prisma.billingMeter.findUnique({ where: { accountId_meter: { accountId, meter } } });
    return row?.units ?? 0;
  }

  it('spends the plan allowance first, then spills into pay-as-you-go up to its limit', async () => {
    const { account, charge } = await givenAccount('researcher', { paygoLimit: 5 });
    expect(await charge(999)).toMatchObject({ charged: 999, planCredits: 999, paygoCredits: 0 });
    expect(await charge(2)).toMatchObject({ charged: 2, planCredits: 1, paygoCredits: 1 });
    expect(await charge(4)).toMatchObject({ planCredits: 0, paygoCredits: 4 });
    await expect(charge(1)).rejects.toBeInstanceOf(PaygoLimitError);
    expect(await ledgerSum(account.id)).toEqual({ plan: 1000, paygo: 5 });
  });

  it('refuses with a plan CreditLimitError (432) when the allowance is spent and pay-as-you-go is off', async () => {
    const { account, charge } = await givenAccount('researcher');
    await charge(1000);
    const refusal = await charge(1).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(CreditLimitError);
    expect((refusal as CreditLimitError).reason).toBe('plan');
    expect(await ledgerSum(account.id)).toEqual({ plan: 1000, paygo: 0 });
  });

  it('refuses a charge that would cross the key limit as a whole, with a key CreditLimitError (432), checked first', async () => {
    const { account, charge } = await givenAccount('researcher', { keyLimit: 3 });
    await charge(2);
    const refusal = await charge(2).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(CreditLimitError);
    expect((refusal as CreditLimitError).reason).toBe('key');
    expect(await charge(1)).toMatchObject({ charged: 1 });
    // Both the key and the plan are short: the key's refusal wins.
    await prisma.creditLedger.create({ data: { accountId: account.id, requestId: randomUUID(), kind: 'search', endpoint: 'search', planCredits: 997, paygoCredits: 0 } });
    expect(((await charge(1).catch((error: unknown) => error)) as CreditLimitError).reason).toBe('key');
    expect(await ledgerSum(account.id)).toEqual({ plan: 1000, paygo: 0 });
  });

  describe('running monthly totals (migration 20261124100000)', () => {
    interface UsageRow {
      api_key_id: string | null;
      month: Date;
      plan_credits: number;
      paygo_credits: number;
    }
    const totalsOf = (accountId: string) =>
      prisma.$queryRawUnsafe<UsageRow[]>(
        `SELECT api_key_id, month, plan_credits::int, paygo_credits::int FROM credit_usage WHERE account_id = $1::uuid
         ORDER BY month, api_key_id NULLS FIRST`,
        accountId,
      );
    /** The same figures summed from the ledger itself. */
    const ledgerTotalsOf = (accountId: string) =>
      prisma.$queryRawUnsafe<UsageRow[]>(
        `SELECT k.api_key_id, date_trunc('month', l.created_at, 'UTC') AS month, sum(l.plan_credits)::int AS plan_credits,
                sum(l.paygo_credits)::int AS paygo_credits
         FROM credit_ledger l CROSS JOIN LATERAL (VALUES (1, NULL::uuid), (2, l.api_key_id)) AS k(n, api_key_id)
         WHERE l.account_id = $1::uuid AND (k.n = 1 OR k.api_key_id IS NOT NULL)
         GROUP BY 1, 2 ORDER BY 2, 1 NULLS FIRST`,
        accountId,
      );

    it('equal the ledger summed per account and per key and month, through charges, other months, updates and deletes', async () => {
      const { account, key, charge } = await givenAccount('researcher', { paygoLimit: 10 });
      await charge(600);
      await charge(400);
      await charge(3);
      // A row of last month, without a key, written directly, then corrected and removed again.
      const lastMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 15));
      const old = await prisma.creditLedger.create({
        data: { accountId: account.id, requestId: randomUUID(), kind: 'search', endpoint: 'search', planCredits: 7, paygoCredits: 1, createdAt: lastMonth },
      });
      await prisma.creditLedger.update({ where: { id: old.id }, data: { planCredits: 5 } });
      const totals = await totalsOf(account.id);
      expect(totals).toEqual(await ledgerTotalsOf(account.id));
      expect(totals.map((row) => [row.api_key_id, row.plan_credits, row.paygo_credits])).toEqual([
        [null, 5, 1],
        [null, 1000, 3],
        [key.id, 1000, 3],
      ]);
      await prisma.creditLedger.delete({ where: { id: old.id } });
      expect((await totalsOf(account.id)).map((row) => row.plan_credits)).toEqual([0, 1000, 1000]);
      await prisma.account.delete({ where: { id: account.id } });
      expect(await totalsOf(account.id)).toEqual([]);
    });

    it("refuse from the totals what the month's ledger already spends, and count from the ledger since any other instant", async () => {
      const { account, key, charge } = await givenAccount('researcher', { keyLimit: 50 });
      // This month's allowance spent by another key: the plan refuses; the key (40 of its 50 left) is not the reason.
      await prisma.creditLedger.create({ data: { accountId: account.id, requestId: randomUUID(), kind: 'search', endpoint: 'search', planCredits: 990, paygoCredits: 0 } });
      await prisma.creditLedger.create({ data: { accountId: account.id, apiKeyId: key.id, requestId: randomUUID(), kind: 'search', endpoint: 'search', planCredits: 10, paygoCredits: 0 } });
      expect(((await charge(1).catch((error: unknown) => error)) as CreditLimitError).reason).toBe('plan');
      const [sinceAnHourAgo] = await prisma.$queryRawUnsafe<{ plan_credits: number }[]>(
        `SELECT plan_credits::int FROM sift_credits_used($1::uuid, $2::uuid, now() - interval '1 hour')`,
        account.id,
        key.id,
      );
      expect(sinceAnHourAgo.plan_credits).toBe(10);
    });
  });

  it('treats enterprise as unlimited and the paygo plan without a ceiling as all pay-as-you-go', async () => {
    const enterprise = await givenAccount('enterprise');
    expect(await enterprise.charge(5_000_000)).toMatchObject({ planCredits: 5_000_000, paygoCredits: 0 });
    const paygo = await givenAccount('paygo');
    expect(await paygo.charge(7)).toMatchObject({ planCredits: 0, paygoCredits: 7 });
    const cappedPaygo = await givenAccount('paygo', { paygoLimit: 3 });
    await expect(cappedPaygo.charge(4)).rejects.toBeInstanceOf(PaygoLimitError);
    // Nothing limits enterprise without a key limit: nothing is held for it.
    expect(await enterprise.reserve(10)).toMatchObject({ credits: 10, held: false });
  });

  it('grants the most that is left between the minimum and the maximum, and refuses below the minimum without charging', async () => {
    const { account, key, reserve, charge } = await givenAccount('researcher', { keyLimit: 10 });
    await charge(7);
    expect(await reserve(5, 1)).toMatchObject({ credits: 3, held: true });
    // The 3 granted are held: the next request finds nothing left.
    await expect(reserve(1, 1)).rejects.toBeInstanceOf(CreditLimitError);
    expect(await ledgerSum(account.id)).toEqual({ plan: 7, paygo: 0 });
    expect(await prisma.creditReservation.count({ where: { apiKeyId: key.id } })).toBe(1);
  });

  it('parallel reservations on a 3-credit key grant at most 3 credits in total and refuse the rest before any work', async () => {
    const { account, reserve } = await givenAccount('growth', { keyLimit: 3 });
    const replicas = Array.from({ length: 5 }, () => createPrismaClient(process.env.DATABASE_URL as string, 4));
    const services = replicas.map(serviceOn);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, index) => reserve(5, 1, {}, services[index % services.length])),
    ).finally(() => Promise.all(replicas.map((client) => client.$disconnect())));
    const granted = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value.credits] : []));
    const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(granted.reduce((sum, credits) => sum + credits, 0)).toBe(3);
    expect(refused.length).toBe(10 - granted.length);
    expect(refused.length).toBeGreaterThanOrEqual(7);
    for (const { reason } of refused) expect(reason).toBeInstanceOf(CreditLimitError);
    expect(await ledgerSum(account.id)).toEqual({ plan: 0, paygo: 0 });
  });

  it('a released reservation charges nothing and frees its credits', async () => {
    const { account, key, reserve } = await givenAccount('growth', { keyLimit: 4 });
    const crawl = await reserve(4, 2, { endpoint: 'crawl' });
    await expect(reserve(1, 1)).rejects.toBeInstanceOf(CreditLimitError);
    await billing.release(crawl);
    expect(await prisma.creditReservation.count({ where: { apiKeyId: key.id } })).toBe(0);
    expect(await prisma.creditLedger.count({ where: { accountId: account.id } })).toBe(0);
    expect(await reserve(4, 4)).toMatchObject({ credits: 4 });
  });

  it('expired reservations stop counting; a settle after expiry charges only what the limits still allow', async () => {
    const { account, reserve } = await givenAccount('growth', { keyLimit: 3 });
    const crashed = await reserve(3, 3, { holdMilliseconds: 1_500 });
    await expect(reserve(1, 1)).rejects.toBeInstanceOf(CreditLimitError);
    await sleep(1_700);
    const next = await reserve(3, 3);
    expect(next.credits).toBe(3);
    // The late request's credits went to the next one: it may not oversell the key.
    expect(await billing.settle(crashed, [{ kind: 'search', credits: 3 }])).toMatchObject({ charged: 0 });
    expect(await billing.settle(next, [{ kind: 'search', credits: 3 }])).toMatchObject({ charged: 3 });
    expect(await ledgerSum(account.id)).toEqual({ plan: 3, paygo: 0 });
  });

  it('grants an unlimited caller its maximum without a row, and a remembered "unlimited" still never oversells', async () => {
    const enterprise = await givenAccount('enterprise');
    const granted = await enterprise.reserve(7, 7);
    expect(granted).toMatchObject({ credits: 7, held: false });
    expect(await prisma.creditReservation.count({ where: { accountId: enterprise.account.id } })).toBe(0);
    expect(await billing.settle(granted, [{ kind: 'search', credits: 7 }])).toMatchObject({ charged: 7 });
    // The key gets a 2-credit limit while this process still trusts the database's "nothing limits it": the
    // reservation is granted from memory, and the settlement still stops at the limit.
    await prisma.apiKey.update({ where: { id: enterprise.key.id }, data: { creditLimit: 2 } });
    const remembered = await enterprise.reserve(5, 5);
    expect(remembered).toMatchObject({ credits: 5, held: false });
    expect(await billing.settle(remembered, [{ kind: 'search', credits: 5 }])).toMatchObject({ charged: 0 });
    // Another process (nothing remembered) asks the database, which now refuses.
    const otherProcess = serviceOn(prisma);
    await expect(enterprise.reserve(1, 1, {}, otherProcess)).rejects.toBeInstanceOf(CreditLimitError);
    // A caller that something limits is never remembered: each reservation goes to the database.
    const limited = await givenAccount('growth', { keyLimit: 2 });
    expect(await limited.reserve(2, 2)).toMatchObject({ credits: 2, held: true });
    await expect(limited.reserve(1, 1)).rejects.toBeInstanceOf(CreditLimitError);
  });

  it('never charges more than the reservation granted', async () => {
    const { account, reserve } = await givenAccount('growth', { keyLimit: 2 });
    const reservation = await reserve(5, 1);
    expect(reservation.credits).toBe(2);
    expect(await billing.settle(reservation, [{ kind: 'search', credits: 5 }])).toMatchObject({ charged: 2 });
    expect(await ledgerSum(account.id)).toEqual({ plan: 2, paygo: 0 });
  });

  it('settles every line of a request in one transaction, and a retried settle returns the first result', async () => {
    const { account, reserve } = await givenAccount('growth');
    const reservation = await reserve(6, 2, { endpoint: 'crawl' });
    const lines: ChargeLine[] = [
      { kind: 'crawl:map', meter: 'map', units: 20 },
      { kind: 'crawl:extract_basic', meter: 'extract_basic', units: 20 },
    ];
    const [first, second] = await Promise.all([billing.settle(reservation, lines), billing.settle(reservation, lines)]);
    expect([first.replayed, second.replayed].sort()).toEqual([false, true]);
    expect(first.charged).toBe(6);
    expect(second.charged).toBe(6);
    expect(await billing.settle(reservation, lines)).toMatchObject({ charged: 6, replayed: true });
    expect(await prisma.creditLedger.findMany({ where: { accountId: account.id }, select: { kind: true, planCredits: true }, orderBy: { kind: 'asc' } })).toEqual([
      { kind: 'crawl:extract_basic', planCredits: 4 },
      { kind: 'crawl:map', planCredits: 2 },
    ]);
    expect(await meterUnits(account.id, 'map')).toBe(0);
    expect(await prisma.creditReservation.count({ where: { accountId: account.id } })).toBe(0);
  });

  it('charges the same (requestId, kind) once, even when both requests race', async () => {
    const { account, charge } = await givenAccount('growth');
    const requestId = randomUUID();
    const [first, second] = await Promise.all([charge(2, { requestId }), charge(2, { requestId })]);
    expect([first.replayed, second.replayed].sort()).toEqual([false, true]);
    expect(first.charged).toBe(2);
    expect(second.charged).toBe(2);
    expect(await charge(2, { requestId })).toMatchObject({ charged: 2, replayed: true });
    expect(await prisma.creditLedger.count({ where: { accountId: account.id, requestId } })).toBe(1);
    // Another kind under the same request id is a separate charge.
    await charge(1, { requestId, kind: 'crawl_extract', endpoint: 'crawl' });
    expect(await ledgerSum(account.id)).toEqual({ plan: 3, paygo: 0 });
    expect(await prisma.creditReservation.count({ where: { accountId: account.id } })).toBe(0);
  });

  it('does not oversell: 50 parallel 1-credit charges against a key with 10 credits left charge exactly 10', async () => {
    const { account, key, charge } = await givenAccount('growth', { keyLimit: 15 });
    await charge(5);
    // Five clients with pools of their own stand for five gateway replicas, so the charges truly overlap.
    const replicas = Array.from({ length: 5 }, () => createPrismaClient(process.env.DATABASE_URL as string, 10));
    const services = replicas.map(serviceOn);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, index) => charge(1, {}, services[index % services.length])),
    ).finally(() => Promise.all(replicas.map((client) => client.$disconnect())));
    const charged = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(charged).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const outcome of refused) expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(CreditLimitError);
    const keySum = await prisma.creditLedger.aggregate({ where: { apiKeyId: key.id }, _sum: { planCredits: true, paygoCredits: true } });
    expect((keySum._sum.planCredits ?? 0) + (keySum._sum.paygoCredits ?? 0)).toBe(15);
    expect(await ledgerSum(account.id)).toEqual({ plan: 15, paygo: 0 });
  });

  it('carries extract successes over per account: four successes charge 0, the fifth charges 1', async () => {
    const { account, chargeMetered } = await givenAccount('growth');
    for (let success = 1; success <= 4; success += 1) expect((await chargeMetered('extract_basic', 1)).charged).toBe(0);
    const fifth = randomUUID();
    expect((await chargeMetered('extract_basic', 1, fifth)).charged).toBe(1);
    // A redelivered job must neither charge again nor advance the meter.
    expect(await chargeMetered('extract_basic', 1, fifth)).toMatchObject({ charged: 1, replayed: true });
    expect((await chargeMetered('extract_basic', 12)).charged).toBe(2);
    expect((await chargeMetered('extract_basic', 3)).charged).toBe(1);
    expect(await ledgerSum(account.id)).toEqual({ plan: 4, paygo: 0 });
    expect(await meterUnits(account.id, 'extract_basic')).toBe(0);
  });

  it('leaves the meter as it was when the reservation is refused', async () => {
    const { account, reserve } = await givenAccount('growth', { keyLimit: 2 });
    const map = async (units: number) => {
      const reservation = await reserve(meteredCreditsBound('map_instructions', units), 2, { endpoint: 'map' });
      return billing.settle(reservation, [{ kind: 'map:map_instructions', meter: 'map_instructions', units }]);
    };
    expect((await map(9)).charged).toBe(0);
    // Another request of the key holds its 2 credits: the tenth unit's block cannot be reserved.
    const holder = await reserve(2, 2);
    await expect(map(1)).rejects.toBeInstanceOf(CreditLimitError);
    expect(await meterUnits(account.id, 'map_instructions')).toBe(9);
    await billing.release(holder);
    expect((await map(1)).charged).toBe(2);
    expect(await meterUnits(account.id, 'map_instructions')).toBe(0);
  });

  it('reports usage per key, per account and per X-Project-ID project for the current month', async () => {
    const { account, key, charge } = await givenAccount('researcher', { paygoLimit: 50, keyLimit: 2000 });
    const other = await apiKeys.create(account.id, {
      name: 'other', keyHash: randomUUID(), prefix: 'sift-dev-othr', lastFour: 'othr', environment: 'dev',
    });
    await charge(998);
    await charge(3, { endpoint: 'crawl', kind: 'crawl', projectExternalId: 'alpha' });
    await charge(2, { apiKeyId: other.id, endpoint: 'research', kind: 'research', projectExternalId: 'alpha' });

    const report = await billing.usage({ accountId: account.id, apiKeyId: key.id });
    expect(report).toEqual({
      key: { usage: 1001, limit: 2000, search_usage: 998, extract_usage: 0, crawl_usage: 3, map_usage: 0, research_usage: 0 },
      account: {
        current_plan: 'Researcher', plan_usage: 1000, plan_limit: 1000, paygo_usage: 3, paygo_limit: 50,
        search_usage: 998, extract_usage: 0, crawl_usage: 3, map_usage: 0, research_usage: 2,
      },
    });

    const alpha = await billing.usage({ accountId: account.id, apiKeyId: key.id, projectExternalId: 'alpha' });
    expect(alpha.key).toMatchObject({ usage: 3, crawl_usage: 3, search_usage: 0 });
    expect(alpha.account).toMatchObject({ search_usage: 0, crawl_usage: 3, research_usage: 2, plan_usage: 1000 });
    const unknown = await billing.usage({ accountId: account.id, apiKeyId: key.id, projectExternalId: 'never-used' });
    expect(unknown.key.usage).toBe(0);
  });
});
