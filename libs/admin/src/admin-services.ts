import { TeamService } from '@sift/auth';
import { AccountRepository, ApiKeyRepository, MemberRepository, type PrismaClient } from '@sift/persistence';
import type { PageRepository } from '@sift/pages';
import { ChunkVectorStore } from '@sift/search-index';
import { AccountsAdmin } from './accounts-admin.service';
import { AdminAudit } from './audit/admin-audit';
import { AdminAuditRepository } from './audit/admin-audit.repository';
import { IndexAdmin } from './index-admin.service';
import { KeysAdmin } from './keys-admin.service';
import { MembersAdmin } from './members-admin.service';

export interface AdminServices {
  accounts: AccountsAdmin;
  keys: KeysAdmin;
  members: MembersAdmin;
  index: IndexAdmin;
  auditEvents: AdminAuditRepository;
}

/** The admin services over one Prisma client, wired the same way for the gateway and the command line. */
export function createAdminServices(prisma: PrismaClient, pages: PageRepository): AdminServices {
  const accounts = new AccountRepository(prisma);
  const members = new MemberRepository(prisma);
  const auditEvents = new AdminAuditRepository(prisma);
  const audit = new AdminAudit(auditEvents);
  return {
    accounts: new AccountsAdmin(accounts, audit),
    keys: new KeysAdmin(accounts, new ApiKeyRepository(prisma), members, audit),
    members: new MembersAdmin(accounts, new TeamService(members), audit),
    index: new IndexAdmin(pages, new ChunkVectorStore(prisma), audit),
    auditEvents,
  };
}
