import type { AccountRepository, AccountWithPlan } from '@sift/persistence';
import { AdminError } from './admin-error';

/**
 * An account named by its id or its name (names are unique): the API's paths may carry either, the command line
 * gives names.
 */
export async function requireAccount(accounts: AccountRepository, reference: string): Promise<AccountWithPlan> {
  const account = (await accounts.findById(reference)) ?? (await accounts.findByName(reference));
  if (!account) throw new AdminError(`No account named "${reference}". See: accounts list`, 'not-found');
  return account;
}

export async function requirePlan(accounts: AccountRepository, planId: string): Promise<void> {
  if (await accounts.findPlan(planId)) return;
  const plans = await accounts.listPlans();
  throw new AdminError(`Unknown plan "${planId}". Plans: ${plans.map((plan) => plan.id).join(', ')}`);
}
