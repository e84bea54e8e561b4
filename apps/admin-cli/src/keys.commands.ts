import { InvalidArgumentError, Option, type Command } from 'commander';
import { KEY_MANAGEMENT_LIMITS } from '@sift/api-contracts';
import { AdminError, DEFAULT_PLAN, type KeyReference } from '@sift/admin';
import type { ApiKeyEnvironment } from '@sift/auth';
import { withAdminContext } from './admin-context';
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
        const { keys: list } = await context.keys.list(options.account);
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
        let reference: KeyReference;
        if (options.key) reference = { apiKey: options.key };
        else if (keyId && options.account) reference = { account: options.account, keyId };
        else throw new AdminError('Give a key id with --account <name>, or --key <api-key>.');
        const { keyId: deactivated } = await context.keys.deactivate(context.actor, reference);
        printResult(options.json, [`Deactivated key ${deactivated}.`], { id: deactivated, status: 'deactivated' });
      }),
    );
}

async function createKey(options: CreateKeyOptions): Promise<void> {
  await withAdminContext(async (context) => {
    const { apiKey, key, account, accountCreated, member } = await context.keys.create(context.actor, {
      account: options.account,
      createAccount: true,
      plan: options.plan,
      paygoLimit: options.paygoLimit,
      name: options.name,
      environment: options.env,
      creditLimit: options.limit ?? null,
      member: options.member,
      ttlHours: options.ttlHours,
    });
    printResult(
      options.json,
      [
        accountCreated ? `Created account "${account.name}" on plan ${account.planId}.` : `Account "${account.name}" (plan ${account.planId}).`,
        `Created ${options.env} key ${key.id} "${key.name}"${key.creditLimit === null ? '' : ` limited to ${key.creditLimit} credits/month`}` +
          (key.expiresAt ? `, expiring ${key.expiresAt.toISOString()}` : '') +
          (member ? ` for ${member.email} (${member.role}).` : " (account-level: the operator's, with the owner's rights)."),
        'API key (shown only this once; store it now):',
        apiKey,
      ],
      {
        api_key: apiKey,
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
