import { Option, type Command } from 'commander';
import type { MemberRoleName } from '@sift/persistence';
import { withAdminContext } from './admin-context';
import { printResult } from './command-output';

export function registerMembersCommands(program: Command): void {
  const members = program.command('members').description('Team members of an account');

  members
    .command('add')
    .description('Add a member. The operator may create the first owner; later owners come by transfer.')
    .requiredOption('--account <name>', 'account name')
    .requiredOption('--email <email>', "the member's e-mail address")
    .option('--name <name>', 'display name')
    .addOption(new Option('--role <role>', 'team role').choices(['owner', 'admin', 'member']).default('member'))
    .option('--json', 'print the result as JSON on the last line')
    .action((options: { account: string; email: string; name?: string; role: MemberRoleName; json?: boolean }) =>
      withAdminContext(async (context) => {
        const { account, member } = await context.members.add(context.actor, options.account, {
          email: options.email,
          name: options.name ?? null,
          role: options.role,
        });
        printResult(options.json, [`Added ${member.email} as ${member.role} of "${account.name}" (${member.id}).`], {
          id: member.id, email: member.email, name: member.name, role: member.role, account: account.name,
        });
      }),
    );

  members
    .command('list')
    .description("List an account's members")
    .requiredOption('--account <name>', 'account name')
    .option('--json', 'print the result as JSON on the last line')
    .action((options: { account: string; json?: boolean }) =>
      withAdminContext(async (context) => {
        const { members: list } = await context.members.list(options.account);
        printResult(
          options.json,
          list.map((member) => `${member.id}  ${member.role.padEnd(6)}  ${member.email}`),
          list.map((member) => ({ id: member.id, email: member.email, name: member.name, role: member.role })),
        );
      }),
    );

  members
    .command('transfer-ownership')
    .description('Make a member the owner; the previous owner becomes an admin')
    .requiredOption('--account <name>', 'account name')
    .requiredOption('--to <member-id>', 'id of the new owner')
    .option('--json', 'print the result as JSON on the last line')
    .action((options: { account: string; to: string; json?: boolean }) =>
      withAdminContext(async (context) => {
        const { account } = await context.members.transferOwnership(context.actor, options.account, options.to);
        printResult(options.json, [`${options.to} now owns "${account.name}".`], { account: account.name, owner: options.to });
      }),
    );
}
