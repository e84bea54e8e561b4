import type { Provider } from '@nestjs/common';
import { AdminJobRepository, AdminJobRunner, createAdminServices, type AdminServices } from '@sift/admin';
import { PageRepository } from '@sift/pages';
import { PrismaClient } from '@sift/persistence';

/** The admin services of @sift/admin, wired as the command line wires them, over the gateway's Prisma client. */
export const ADMIN_SERVICES = Symbol('ADMIN_SERVICES');

export const adminProviders: Provider[] = [
  {
    provide: ADMIN_SERVICES,
    inject: [PrismaClient, PageRepository],
    useFactory: (prisma: PrismaClient, pages: PageRepository): AdminServices => createAdminServices(prisma, pages),
  },
  {
    provide: AdminJobRunner,
    inject: [PrismaClient, ADMIN_SERVICES],
    useFactory: (prisma: PrismaClient, services: AdminServices) => new AdminJobRunner(new AdminJobRepository(prisma), services.auditEvents),
  },
];
