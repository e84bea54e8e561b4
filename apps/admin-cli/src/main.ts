import { Command } from 'commander';
import { AdminError } from '@sift/admin';
import { ForbiddenActionError, NotFoundError, TeamConflictError } from '@sift/auth';
import { registerAccountsCommands } from './accounts.commands';
import { registerIndexCommands } from './index.commands';
import { registerKeysCommands } from './keys.commands';
import { registerMembersCommands } from './members.commands';
import { registerPlansCommands } from './plans.commands';

/**
 * Operator command line for self-hosters: `npm run admin -- <command>`. Uses DATABASE_URL. It calls the same services
 * as the admin API (@sift/admin), and each action is on the same audit trail, recorded as the user at this machine.
 */
function buildProgram(): Command {
  const program = new Command('sift-admin')
    .description('Administer a self-hosted Sift: accounts, plans, API keys, team members, the local search index')
    .showHelpAfterError();
  registerKeysCommands(program);
  registerAccountsCommands(program);
  registerPlansCommands(program);
  registerMembersCommands(program);
  registerIndexCommands(program);
  return program;
}

const expectedErrors = [AdminError, ForbiddenActionError, NotFoundError, TeamConflictError];

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    const expected = expectedErrors.some((type) => error instanceof type);
    process.stderr.write(`error: ${expected ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`);
    process.exitCode = 1;
  });
