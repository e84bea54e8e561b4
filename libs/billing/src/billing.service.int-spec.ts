import { randomUUID } from 'node:crypto';
import {
  AccountRepository,
  ApiKeyRepository,
  CreditLedgerRepository,
  ProjectRepository,
  createPrismaClient,
  type PrismaClient,
} from '@sift/persistence';
import { CreditLimitError, PaygoLimitError } from './billing-errors';
import { BillingService, type ChargeInput } from './billing.service';
import { CREDIT_COSTS } from './credit-costs';

describe('BillingService (real Postgres)', () => {
  let prisma: PrismaClient;
  let billing: BillingService;
  let accounts: AccountRepository;
  let apiKeys: ApiKeyRepository;

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 10);
    accounts = new AccountRepository(prisma);
    apiKeys = new ApiKeyRepository(prisma);
    billing = new BillingService({
      ledger: new CreditLedgerRepository(prisma),
      accounts,
      apiKeys,
      projects: new ProjectRepository(prisma),
    });
  });

  afterAll(async () => {
    await prisma.$disconnect();
  });

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
    const charge = (credits: number, overrides: Partial<ChargeInput> = {}) =>
      billing.charge({
        accountId: account.id,
        apiKeyId: key.id,
        requestId: randomUUID(),
        kind: 'search',
        endpoint: 'search',
        credits,
        ...overrides,
      });
    return { account, key, charge };
  }

  async function ledgerSum(accountId: string) {
    const sum = await prisma.creditLedger.aggregate({ where: { accountId }, _sum: { planCredits: true, paygoCredits: true } });
    return { plan: sum._sum.planCredits ?? 0, paygo: sum._sum.paygoCredits ?? 0 };
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

  it('refuses a charge that would cross the key limit as a whole, with a key CreditLimitError (432)', async () => {
    const { account, charge } = await givenAccount('growth', { keyLimit: 3 });
    await charge(2);
    const refusal = await charge(2).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(CreditLimitError);
    expect((refusal as CreditLimitError).reason).toBe('key');
    expect(await charge(1)).toMatchObject({ charged: 1 });
    expect(await ledgerSum(account.id)).toEqual({ plan: 3, paygo: 0 });
  });

  it('treats enterprise as unlimited and the paygo plan without a ceiling as all pay-as-you-go', async () => {
    const enterprise = await givenAccount('enterprise');
    expect(await enterprise.charge(5_000_000)).toMatchObject({ planCredits: 5_000_000, paygoCredits: 0 });
    const paygo = await givenAccount('paygo');
    expect(await paygo.charge(7)).toMatchObject({ planCredits: 0, paygoCredits: 7 });
    const cappedPaygo = await givenAccount('paygo', { paygoLimit: 3 });
    await expect(cappedPaygo.charge(4)).rejects.toBeInstanceOf(PaygoLimitError);
  });

  it('assertCanSpend applies the same limits without charging', async () => {
    const { account, key, charge } = await givenAccount('researcher', { keyLimit: 10 });
    await charge(9);
    await expect(billing.assertCanSpend({ accountId: account.id, apiKeyId: key.id, credits: 1 })).resolves.toBeUndefined();
    await expect(billing.assertCanSpend({ accountId: account.id, apiKeyId: key.id, credits: 2 })).rejects.toBeInstanceOf(CreditLimitError);
    expect(await ledgerSum(account.id)).toEqual({ plan: 9, paygo: 0 });
  });

  it('remembers for a while that an account and key have no limit, and reads limited ones every time', async () => {
    let reads = 0;
    let clock = new Date('2026-11-23T10:00:00Z').getTime();
    const ledger = new CreditLedgerRepository(prisma);
    const counting = Object.assign(Object.create(ledger) as CreditLedgerRepository, {
      spendingPosition: (...args: Parameters<CreditLedgerRepository['spendingPosition']>) => {
        reads += 1;
        return ledger.spendingPosition(...args);
      },
    });
    const cached = new BillingService({ ledger: counting, accounts, apiKeys, projects: new ProjectRepository(prisma), now: () => new Date(clock) });
    const unlimited = await givenAccount('enterprise');
    const check = (subject: { account: { id: string }; key: { id: string } }, credits = 5) =>
      cached.assertCanSpend({ accountId: subject.account.id, apiKeyId: subject.key.id, credits });

    await check(unlimited);
    await check(unlimited);
    expect(reads).toBe(1);
    clock += 10_001;
    await check(unlimited);
    expect(reads).toBe(2);

    // A key limit makes the position limited: read on every check.
    const keyLimited = await givenAccount('enterprise', { keyLimit: 100 });
    await check(keyLimited);
    await check(keyLimited);
    expect(reads).toBe(4);
    const planLimited = await givenAccount('researcher');
    await check(planLimited);
    await expect(check(planLimited, 1_000_000)).rejects.toBeInstanceOf(CreditLimitError);
    expect(reads).toBe(6);

    // A limit set within the window passes the pre-check but not the charge, which reads under the lock.
    await prisma.apiKey.update({ where: { id: unlimited.key.id }, data: { creditLimit: 1 } });
    await expect(check(unlimited)).resolves.toBeUndefined();
    await expect(unlimited.charge(5)).rejects.toBeInstanceOf(CreditLimitError);
  });

  it('charges the same (requestId, kind) once, even when both calls race', async () => {
    const { account, charge } = await givenAccount('growth');
    const requestId = randomUUID();
    const [first, second] = await Promise.all([charge(2, { requestId }), charge(2, { requestId })]);
    expect([first.replayed, second.replayed].sort()).toEqual([false, true]);
    expect(first.charged).toBe(2);
    expect(second.charged).toBe(2);
    expect(await charge(2, { requestId })).toMatchObject({ charged: 2, replayed: true });
    expect(await prisma.creditLedger.count({ where: { accountId: account.id, requestId } })).toBe(1);
    // Another kind under the same request id is a separate charge (e.g. the extract part of a crawl).
    await charge(1, { requestId, kind: 'crawl_extract', endpoint: 'crawl' });
    expect(await ledgerSum(account.id)).toEqual({ plan: 3, paygo: 0 });
  });

  it('does not oversell: 50 parallel 1-credit charges against a key with 10 credits left charge exactly 10', async () => {
    const { account, key, charge } = await givenAccount('growth', { keyLimit: 15 });
    await charge(5);
    // Five clients with pools of their own stand for five gateway replicas, so the charges truly overlap.
    const replicas = Array.from({ length: 5 }, () => createPrismaClient(process.env.DATABASE_URL as string, 10));
    const services = replicas.map(
      (client) =>
        new BillingService({
          ledger: new CreditLedgerRepository(client),
          accounts: new AccountRepository(client),
          apiKeys: new ApiKeyRepository(client),
          projects: new ProjectRepository(client),
        }),
    );
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, index) =>
        services[index % services.length].charge({
          accountId: account.id, apiKeyId: key.id, requestId: randomUUID(), kind: 'search', endpoint: 'search', credits: 1,
        }),
      ),
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
    const { account, key } = await givenAccount('growth');
    const extract = (units: number, requestId = randomUUID()) =>
      billing.chargeMetered({
        accountId: account.id,
        apiKeyId: key.id,
        requestId,
        kind: 'extract',
        endpoint: 'extract',
        meter: 'extract_basic',
        units,
        ...CREDIT_COSTS.meters.extract_basic,
      });
    for (let success = 1; success <= 4; success += 1) expect((await extract(1)).charged).toBe(0);
    const fifth = randomUUID();
    expect((await extract(1, fifth)).charged).toBe(1);
    // A redelivered job must neither charge again nor advance the meter.
    expect(await extract(1, fifth)).toMatchObject({ charged: 1, replayed: true });
    expect((await extract(12)).charged).toBe(2);
    expect((await extract(3)).charged).toBe(1);
    expect(await ledgerSum(account.id)).toEqual({ plan: 4, paygo: 0 });
    const meter = await prisma.billingMeter.findUnique({ where: { accountId_meter: { accountId: account.id, meter: 'extract_basic' } } });
    expect(meter?.units).toBe(0);
  });

  it('rolls the meter back when the block it completes is refused', async () => {
    const { account, key } = await givenAccount('growth', { keyLimit: 0 });
    const map = (units: number) =>
      billing.chargeMetered({
        accountId: account.id,
        apiKeyId: key.id,
        requestId: randomUUID(),
        kind: 'map',
        endpoint: 'map',
        meter: 'map_instructions',
        units,
        ...CREDIT_COSTS.meters.map_instructions,
      });
    expect((await map(9)).charged).toBe(0);
    await expect(map(1)).rejects.toBeInstanceOf(CreditLimitError);
    const meter = await prisma.billingMeter.findUnique({ where: { accountId_meter: { accountId: account.id, meter: 'map_instructions' } } });
    expect(meter?.units).toBe(9);
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
