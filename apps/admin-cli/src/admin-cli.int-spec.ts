import { randomUUID } from 'node:crypto';
import { ApiKeyAuthenticator } from '@sift/auth';
import { AdminAuditRepository } from '@sift/admin';
import { AccountRepository, ApiKeyRepository, createPrismaClient, type PrismaClient } from '@sift/persistence';
import { CHILD_PROCESS_TEST_TIMEOUT, runAdmin } from './testing/run-admin';

const admin = (...args: string[]) => runAdmin({}, ...args);

/** Like admin(), but a failing command fails the test with the command's own error output. */
async function adminOk(...args: string[]): Promise<string> {
  const result = await admin(...args);
  if (result.exitCode !== 0) throw new Error(`admin ${args.join(' ')} exited with ${result.exitCode}: ${result.stderr}`);
  return result.stdout;
}

function lastLineJson(stdout: string): Record<string, unknown> {
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]) as Record<string, unknown>;
}

describe('admin command line (child process, real Postgres)', () => {
  let prisma: PrismaClient;
  let authenticator: ApiKeyAuthenticator;
  let accounts: AccountRepository;

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    authenticator = new ApiKeyAuthenticator(new ApiKeyRepository(prisma));
    accounts = new AccountRepository(prisma);
  });

  afterAll(async () => {
    await prisma.$disconnect();
  });

  it('keys create --json creates the account and prints a key that authenticates; deactivate revokes it', async () => {
    const name = `cli-${randomUUID()}`;
    const output = lastLineJson(
      await adminOk('keys', 'create', '--account', name, '--plan', 'growth', '--env', 'prod', '--limit', '500', '--json'),
    );
    expect(output).toMatchObject({ account: name, account_created: true, plan: 'growth', environment: 'prod', credit_limit: 500 });
    const apiKey = output.api_key as string;
    expect(apiKey).toMatch(/^sift-prod-/);

    const authenticated = await authenticator.authenticate(apiKey);
    expect(authenticated).toMatchObject({ accountName: name, planId: 'growth', environment: 'prod', creditLimit: 500, apiKeyId: output.key_id });
    // Only the hash is stored.
    expect(await prisma.apiKey.count({ where: { keyHash: apiKey } })).toBe(0);

    const second = lastLineJson(await adminOk('keys', 'create', '--account', name, '--json'));
    expect(second).toMatchObject({ account_created: false, plan: 'growth' });
    expect(second.api_key).not.toBe(apiKey);

    await adminOk('keys', 'deactivate', '--account', name, output.key_id as string);
    expect(await authenticator.authenticate(apiKey)).toBeNull();
    expect(await authenticator.authenticate(second.api_key as string)).not.toBeNull();
    await adminOk('keys', 'deactivate', '--key', second.api_key as string);

    // On the audit trail the admin API shares: the user at this machine, each action, no key in the record.
    const events = await new AdminAuditRepository(prisma).list({ accountId: output.account_id as string, limit: 10 });
    expect(events.map((event) => `${event.action} ${event.outcome}`).reverse()).toEqual([
      'keys.create succeeded',
      'keys.create succeeded',
      'keys.deactivate succeeded',
      'keys.deactivate succeeded',
    ]);
    for (const event of events) expect(event).toMatchObject({ channel: 'cli', actor: expect.stringMatching(/^.+@.+$/) });
    expect(events[0].parameters).toEqual({ api_key: `${(second.api_key as string).slice(0, 12)}…${(second.api_key as string).slice(-4)}` });
    expect(JSON.stringify(events)).not.toContain(apiKey);
    expect(JSON.stringify(events)).not.toContain(second.api_key as string);
  }, CHILD_PROCESS_TEST_TIMEOUT);

  it('keys create --ttl-hours makes a key that expires then, and refuses hours outside 1–8760', async () => {
    const output = lastLineJson(await adminOk('keys', 'create', '--account', `cli-${randomUUID()}`, '--ttl-hours', '2', '--json'));
    const expiresAt = new Date(output.expires_at as string).getTime();
    expect(Math.abs(expiresAt - (Date.now() + 2 * 3_600_000))).toBeLessThan(60_000);
    expect((await authenticator.authenticate(output.api_key as string))?.expiresAt?.getTime()).toBe(expiresAt);
    await expect(adminOk('keys', 'create', '--account', `cli-${randomUUID()}`, '--ttl-hours', '0')).rejects.toThrow(/whole hours from 1 to 8760/);
  }, CHILD_PROCESS_TEST_TIMEOUT);

  it("puts a new account on the self-hosted plan unless told otherwise: no monthly cap, request logs readable", async () => {
    const output = lastLineJson(await adminOk('keys', 'create', '--account', `cli-${randomUUID()}`, '--json'));
    expect(output).toMatchObject({ account_created: true, plan: 'self-hosted' });
    expect(await authenticator.authenticate(output.api_key as string)).toMatchObject({
      planId: 'self-hosted',
      planMonthlyCredits: null,
      planPaid: true,
    });
  }, CHILD_PROCESS_TEST_TIMEOUT);

  it('lists plans and accounts, sets zero data retention and adds members, refusing bad input with exit code 1', async () => {
    const name = `cli-${randomUUID()}`;
    const plans = JSON.parse((await adminOk('plans', 'list', '--json')).trim().split('\n').at(-1) as string);
    expect((plans as { id: string }[]).map((plan) => plan.id).sort()).toEqual(
      ['bootstrap', 'enterprise', 'growth', 'paygo', 'project', 'researcher', 'self-hosted', 'startup'],
    );

    const refused = await admin('keys', 'create', '--account', name, '--plan', 'platinum');
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('Unknown plan "platinum"');
    expect(await accounts.findByName(name)).toBeNull();

    await adminOk('keys', 'create', '--account', name, '--plan', 'paygo', '--paygo-limit', '300');
    await adminOk('accounts', 'set-zdr', name, 'on');
    const listed = (await adminOk('accounts', 'list', '--json')).trim().split('\n').at(-1) as string;
    expect(JSON.parse(listed)).toContainEqual(
      expect.objectContaining({ name, plan: 'paygo', paygo_limit: 300, zero_data_retention: true }),
    );

    await adminOk('members', 'add', '--account', name, '--email', 'owner@example.com', '--role', 'owner');
    const secondOwner = await admin('members', 'add', '--account', name, '--email', 'other@example.com', '--role', 'owner');
    expect(secondOwner.exitCode).toBe(1);
    expect(secondOwner.stderr).toContain('already has an owner');
    const member = lastLineJson(await adminOk('members', 'add', '--account', name, '--email', 'dev@example.com', '--json'));
    expect(member).toMatchObject({ role: 'member', email: 'dev@example.com' });

    // keys create --member: the key belongs to the member (by e-mail or id) and acts with the member's role.
    const memberKey = lastLineJson(await adminOk('keys', 'create', '--account', name, '--member', 'dev@example.com', '--json'));
    expect(memberKey).toMatchObject({ member_id: member.id, member_role: 'member' });
    expect(await authenticator.authenticate(memberKey.api_key as string)).toMatchObject({ memberId: member.id });
    const byId = lastLineJson(await adminOk('keys', 'create', '--account', name, '--member', member.id as string, '--json'));
    expect(byId).toMatchObject({ member_id: member.id });
    const unknownMember = await admin('keys', 'create', '--account', name, '--member', 'nobody@example.com');
    expect(unknownMember.exitCode).toBe(1);
    expect(unknownMember.stderr).toContain('No member "nobody@example.com"');
    const noAccount = await admin('keys', 'create', '--account', `cli-${randomUUID()}`, '--member', 'dev@example.com');
    expect(noAccount.exitCode).toBe(1);
    expect(noAccount.stderr).toContain('add the member first');
  }, CHILD_PROCESS_TEST_TIMEOUT);
});
