import { randomUUID } from 'node:crypto';
import { AccountRepository, ApiKeyRepository, createPrismaClient, type PrismaClient } from '@sift/persistence';
import { ApiKeyAuthenticator } from './api-key-authenticator.service';
import { generateApiKey } from './api-key-format';

describe('ApiKeyAuthenticator (real Postgres)', () => {
  let prisma: PrismaClient;
  let accounts: AccountRepository;
  let apiKeys: ApiKeyRepository;
  let authenticator: ApiKeyAuthenticator;

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    accounts = new AccountRepository(prisma);
    apiKeys = new ApiKeyRepository(prisma);
    authenticator = new ApiKeyAuthenticator(apiKeys);
  });

  afterAll(async () => {
    await prisma.$disconnect();
  });

  async function givenKey(environment: 'dev' | 'prod', planId = 'startup') {
    const account = await accounts.create({ name: `auth-${randomUUID()}`, planId, zeroDataRetention: true });
    const generated = generateApiKey(environment);
    const record = await apiKeys.create(account.id, {
      name: 'ci', keyHash: generated.keyHash, prefix: generated.prefix, lastFour: generated.lastFour, environment, creditLimit: 42,
    });
    return { account, generated, record };
  }

  it('authenticates a valid key to its account, plan and limits', async () => {
    const { account, generated, record } = await givenKey('prod');
    expect(await authenticator.authenticate(generated.apiKey)).toEqual({
      apiKeyId: record.id,
      accountId: account.id,
      accountName: account.name,
      memberId: null,
      environment: 'prod',
      creditLimit: 42,
      planId: 'startup',
      planPaid: true,
      planMonthlyCredits: 38_000,
      paygoLimit: null,
      zeroDataRetention: true,
      projectId: null,
      projectExternalId: null,
      expiresAt: null,
    });
  });

  it('authenticates a key with a ttl until its expiry and refuses it from then on', async () => {
    const { account } = await givenKey('dev');
    const generated = generateApiKey('dev');
    const expiresAt = new Date(Date.now() + 60_000);
    await apiKeys.create(account.id, { name: 'ttl', keyHash: generated.keyHash, prefix: generated.prefix, lastFour: generated.lastFour, environment: 'dev', expiresAt });
    expect(await authenticator.authenticate(generated.apiKey)).toMatchObject({ expiresAt });
    const clock = jest.spyOn(Date, 'now').mockReturnValue(expiresAt.getTime());
    try {
      expect(await authenticator.authenticate(generated.apiKey)).toBeNull();
    } finally {
      clock.mockRestore();
    }
  });

  it('rejects a wrong key, a near miss and an empty header', async () => {
    const { generated } = await givenKey('dev');
    expect(await authenticator.authenticate(generateApiKey('dev').apiKey)).toBeNull();
    const lastCharacter = generated.apiKey.at(-1) === 'A' ? 'B' : 'A';
    expect(await authenticator.authenticate(generated.apiKey.slice(0, -1) + lastCharacter)).toBeNull();
    expect(await authenticator.authenticate('')).toBeNull();
    expect(await authenticator.authenticate(undefined)).toBeNull();
  });

  it('rejects a key once it is deactivated, and only that key', async () => {
    const { account, generated, record } = await givenKey('dev');
    const sibling = generateApiKey('dev');
    await apiKeys.create(account.id, { name: 'sibling', keyHash: sibling.keyHash, prefix: sibling.prefix, lastFour: sibling.lastFour, environment: 'dev' });
    expect(await apiKeys.deactivate(account.id, record.id)).toBe(true);
    expect(await authenticator.authenticate(generated.apiKey)).toBeNull();
    expect(await authenticator.authenticate(sibling.apiKey)).not.toBeNull();
    expect((await apiKeys.findById(account.id, record.id))?.deactivatedAt).toBeInstanceOf(Date);
  });

  it('does not let another account deactivate a key', async () => {
    const { generated, record } = await givenKey('dev');
    const stranger = await accounts.create({ name: `auth-${randomUUID()}`, planId: 'researcher' });
    expect(await apiKeys.deactivate(stranger.id, record.id)).toBe(false);
    expect(await authenticator.authenticate(generated.apiKey)).not.toBeNull();
  });
});
