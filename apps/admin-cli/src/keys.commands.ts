import { InvalidArgumentError, Option, type Command } from 'commander';
import { KEY_MANAGEMENT_LIMITS } from '@sift/api-contracts';
import { generateApiKey, hashApiKey, type ApiKeyEnvironment } from '@sift/auth';
import type { AccountWithPlan, MemberRecord } from '@sift/persistence';
import { requireAccount, requirePlan } from './account-lookup';
import { AdminCommandError } from './admin-command-error';
import { withAdminContext, type AdminContext } from './admin-context';
import { printResult } from './command-output';
import { parseCredits } from './credits-argument';

interface CreateKeyOptions {
  account: string;
  plan?: string;
  name: string;
  env: ApiKeyEnvironment;
  limit?: number;
  paygoLimit?: number;
  member?: string;
  ttlHours?: number;
  json?: boolean;
}

/** --ttl-hours: whole hours within the range POST /generate-keys accepts for ttl_hours. */
function parseTtlHours(value: string): number {
  const hours = Number(value);
  const { min, max } = KEY_MANAGEMENT_LIMITS.ttlHours;
  if (!/^\d+$/.test(value) || hours < min || hours > max) throw new InvalidArgumentError(`Expected whole hours from ${min} to ${max}.`);
  return hours;
}

// The operator's own keys are not capped: hosted plans (researcher, growth, …) are for operators who resell.
const DEFAULT_PLAN = 'self-hosted';

export function registerKeysCommands(program: Command): void {
  const keys = program.command('keys').description('Create, list and deactivate API keys');

  keys
    .command('create')
    .description('Create an API key (and the account, if it does not exist yet). The key is shown only once.')
    .requiredOption('--account <name>', 'account name')
    .option('--plan <plan>', `plan id for a new account, or to move an existing one (default for new accounts: ${DEFAULT_PLAN})`)
    .option('--name <name>', 'a label for the key', 'default')
    .addOption(new Option('--env <environment>', 'key environment').choices(['dev', 'prod']).default('dev'))
    .option('--limit <credits>', 'monthly credit limit of this key', parseCredits)
    .option('--paygo-limit <credits>', "set the account's monthly pay-as-you-go ceiling", parseCredits)
    .option('--ttl-hours <hours>', 'the key stops authenticating this many hours from now (as ttl_hours of POST /generate-keys)', parseTtlHours)
    .option(
      '--member <email-or-id>',
      "the team member the key belongs to and acts as (their role's rights); without it the key is the operator's, with the owner's rights",
    )
    .option('--json', 'print the result as JSON on the last line')
    .action((options: CreateKeyOptions) => createKey(options));

  keys
    .command('list')
    .description("List an account's keys (prefix and last four only)")
    .requiredOption('--account <name>', 'account name')
    .option('--json', 'print the result as JSON on the last line')
    .action((options: { account: string; json?: boolean }) =>
      withAdminContext(async (context) => {
        const account = await requireAccount(context, options.account);
        const list = await context.apiKeys.list(account.id);
        printResult(
          options.json,
          list.map((key) => `${key.id}  ${key.prefix}…${key.lastFour}  ${key.environment}  ${key.status}  ${key.memberId ?? 'operator'}  ${key.name}`),
          list.map((key) => ({
            id: key.id, name: key.name, prefix: key.prefix, last_four: key.lastFour, environment: key.environment,
            status: key.status, credit_limit: key.creditLimit, member_id: key.memberId, created_at: key.createdAt, deactivated_at: key.deactivatedAt,
          })),
        );
      }),
    );

  keys
    .command('deactivate')
    .description('Deactivate a key, by its id (with --account) or by the key itself (--key)')
    .argument('[key-id]', 'id of the key, as shown by keys list')
    .option('--account <name>', 'account the key id belongs to')
    .option('--key <api-key>', 'the API key itself')
    .option('--json', 'print the result as JSON on the last line')
    .action((keyId: string | undefined, options: { account?: string; key?: string; json?: boolean }) =>
      withAdminContext(async (context) => {
        let accountId: string;
        let apiKeyId: string;
        if (options.key) {
          const found = await context.apiKeys.findByHash(hashApiKey(options.key));
          if (!found) throw new AdminCommandError('No such key.');
          accountId = found.accountId;
          apiKeyId = found.id;
        } else if (keyId && options.account) {
          accountId = (await requireAccount(context, options.account)).id;
          apiKeyId = keyId;
        } else {
          throw new AdminCommandError('Give a key id with --account <name>, or --key <api-key>.');
        }
        if (!(await context.apiKeys.deactivate(accountId, apiKeyId))) {
          throw new AdminCommandError('No active key with that id in this account.');
        }
        printResult(options.json, [`Deactivated key ${apiKeyId}.`], { id: apiKeyId, status: 'deactivated' });
      }),
    );
}

async function createKey(options: CreateKeyOptions): Promise<void> {
  await withAdminContext(async (context) => {
    if (options.plan) await requirePlan(context, options.plan);
    let account = await context.accounts.findByName(options.account);
    // A member key needs the member, so the account must already exist: nothing is created when the member is unknown.
    const member = options.member ? await requireMember(context, account, options.member) : null;
    let accountCreated = false;
    if (!account) {
      account = await context.accounts.create({
        name: options.account,
        planId: options.plan ?? DEFAULT_PLAN,
        paygoLimit: options.paygoLimit ?? null,
      });
      accountCreated = true;
    } else {
      if (options.plan && options.plan !== account.planId) account = await context.accounts.updatePlan(account.id, options.plan);
      if (options.paygoLimit !== undefined) account = await context.accounts.updatePaygoLimit(account.id, options.paygoLimit);
    }
    const generated = generateApiKey(options.env);
    const key = await context.apiKeys.create(account.id, {
      name: options.name,
      keyHash: generated.keyHash,
      prefix: generated.prefix,
      lastFour: generated.lastFour,
      environment: options.env,
      creditLimit: options.limit ?? null,
      memberId: member?.id ?? null,
      expiresAt: options.ttlHours === undefined ? null : new Date(Date.now() + options.ttlHours * 3_600_000),
    });
    printResult(
      options.json,
      [
        accountCreated ? `Created account "${account.name}" on plan ${account.planId}.` : `Account "${account.name}" (plan ${account.planId}).`,
        `Created ${options.env} key ${key.id} "${key.name}"${key.creditLimit === null ? '' : ` limited to ${key.creditLimit} credits/month`}` +
          (key.expiresAt ? `, expiring ${key.expiresAt.toISOString()}` : '') +
          (member ? ` for ${member.email} (${member.role}).` : " (account-level: the operator's, with the owner's rights)."),
        'API key (shown only this once; store it now):',
        generated.apiKey,
      ],
      {
        api_key: generated.apiKey,
        key_id: key.id,
        name: key.name,
        environment: options.env,
        credit_limit: key.creditLimit,
        expires_at: key.expiresAt?.toISOString() ?? null,
        member_id: member?.id ?? null,
        member_role: member?.role ?? null,
        account: account.name,
        account_id: account.id,
        account_created: accountCreated,
        plan: account.planId,
        paygo_limit: account.paygoLimit,
      },
    );
  });
}

async function requireMember(context: AdminContext, account: AccountWithPlan | null, emailOrId: string): Promise<MemberRecord> {
  if (!account) throw new AdminCommandError('A member key needs an existing account with that member; add the member first (members add).');
  const member = (await context.members.findById(account.id, emailOrId)) ?? (await context.members.findByEmail(account.id, emailOrId));
  if (!member) throw new AdminCommandError(`No member "${emailOrId}" in account "${account.name}". See: members list`);
  return member;
}
