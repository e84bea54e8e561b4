import type { Command } from 'commander';
import { withAdminContext } from './admin-context';
import { printResult } from './command-output';

export function registerPlansCommands(program: Command): void {
  const plans = program.command('plans').description('The plan catalogue');

  plans
    .command('list')
    .description('List the plans and their monthly credits')
    .option('--json', 'print the result as JSON on the last line')
    .action((options: { json?: boolean }) =>
      withAdminContext(async (context) => {
        const list = await context.accounts.listPlans();
        printResult(
          options.json,
          list.map((plan) => `${plan.id.padEnd(12)} ${plan.name.padEnd(14)} ${plan.monthlyCredits ?? 'custom'} credits/month`),
          list.map((plan) => ({
            id: plan.id, name: plan.name, monthly_credits: plan.monthlyCredits, price_usd_cents: plan.priceUsdCents, paid: plan.paid,
          })),
        );
      }),
    );
}
