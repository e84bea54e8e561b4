import type { AccountWithPlan } from '@sift/persistence';
import { AdminCommandError } from './admin-command-error';
import type { AdminContext } from './admin-context';

export async function requireAccount(context: AdminContext, name: string): Promise<AccountWithPlan> {
  const account = await context.accounts.findByName(name);
  if (!account) throw new AdminCommandError(`No account named "${name}". See: accounts list`);
  return account;
}

export async function requirePlan(context: AdminContext, planId: string): Promise<void> {
  if (await context.accounts.findPlan(planId)) return;
  const plans = await context.accounts.listPlans();
  throw new AdminCommandError(`Unknown plan "${planId}". Plans: ${plans.map((plan) => plan.id).join(', ')}`);
}
