import type { Command } from 'commander';
import { AdminError } from '@sift/admin';
import { withAdminContext } from './admin-context';
import { printResult } from './command-output';
import { parseCredits } from './credits-argument';

export function registerAccountsCommands(program: Command): void {
  const accounts = program.command('accounts').description('List accounts and change their settings');

  accounts
    .command('list')
    .description('List all accounts with their plan and settings')
    .option('--json', 'print the result as JSON on the last line')
    .action((options: { json?: boolean }) =>
      withAdminContext(async (context) => {
        const list = await context.accounts.listAccounts();
        printResult(
          options.json,
          list.length === 0
            ? ['No accounts yet. Create one with: keys create --account <name> --plan <plan>']
            : list.map(
                (account) =>
                  `${account.name}  plan=${account.planId}  paygo_limit=${account.paygoLimit ?? 'off'}  zdr=${account.zeroDataRetention ? 'on' : 'off'}`,
              ),
          list.map((account) => ({
            id: account.id, name: account.name, plan: account.planId, paygo_limit: account.paygoLimit,
            zero_data_retention: account.zeroDataRetention, created_at: account.createdAt,
          })),
        );
      }),
    );

  accounts
    .command('set-zdr')
    .description('Turn zero data retention on or off for an account')
    .argument('<name>', 'account name')
    .argument('<state>', 'on or off')
    .option('--json', 'print the result as JSON on the last line')
    .action((name: string, state: string, options: { json?: boolean }) =>
      withAdminContext(async (context) => {
        if (state !== 'on' && state !== 'off') throw new AdminError('State must be "on" or "off".');
        const updated = await context.accounts.update(context.actor, name, { zeroDataRetention: state === 'on' });
        printResult(options.json, [`Zero data retention is ${state} for "${name}".`], {
          name, zero_data_retention: updated.zeroDataRetention,
        });
      }),
    );

  accounts
    .command('set-plan')
    .description("Move an account to another plan")
    .argument('<name>', 'account name')
    .argument('<plan>', 'plan id (see plans list)')
    .option('--json', 'print the result as JSON on the last line')
    .action((name: string, planId: string, options: { json?: boolean }) =>
      withAdminContext(async (context) => {
        await context.accounts.update(context.actor, name, { plan: planId });
        printResult(options.json, [`"${name}" is now on plan ${planId}.`], { name, plan: planId });
      }),
    );

  accounts
    .command('set-paygo-limit')
    .description('Set the monthly pay-as-you-go ceiling in credits, or "off"')
    .argument('<name>', 'account name')
    .argument('<credits>', 'whole number of credits, or off')
    .option('--json', 'print the result as JSON on the last line')
    .action((name: string, credits: string, options: { json?: boolean }) =>
      withAdminContext(async (context) => {
        const limit = credits === 'off' ? null : parseCredits(credits);
        await context.accounts.update(context.actor, name, { paygoLimit: limit });
        printResult(options.json, [`Pay-as-you-go limit of "${name}": ${limit ?? 'off'}.`], { name, paygo_limit: limit });
      }),
    );
}
