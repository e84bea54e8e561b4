import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ADMIN_LIMITS, AdminAuditQueryDto, AdminAuditResponseDto } from '@sift/api-contracts';
import type { AdminServices } from '@sift/admin';
import { AdminEndpoint } from './admin-endpoint.decorator';
import { ADMIN_SERVICES } from './admin-services.provider';
import { auditView } from './admin-views';
import { OperatorOnly } from './operator.guard';

@Controller('admin/audit')
@OperatorOnly()
export class AdminAuditController {
  constructor(@Inject(ADMIN_SERVICES) private readonly admin: AdminServices) {}

  @Get()
  @AdminEndpoint({
    operationId: 'adminListAuditEvents',
    summary: 'The admin audit trail: who did what, when, and how it ended (admin API and command line)',
    description: 'Newest first; `before` pages back. Reads are not recorded, every change and every job is.',
    response: AdminAuditResponseDto,
    errors: { 404: 'No account of that name or id' },
  })
  async listAuditEvents(@Query() query: AdminAuditQueryDto): Promise<AdminAuditResponseDto> {
    const accountId = query.account ? (await this.admin.accounts.find(query.account)).id : undefined;
    const events = await this.admin.auditEvents.list({ accountId, action: query.action, beforeId: query.before, limit: query.limit ?? ADMIN_LIMITS.list.default });
    return { events: events.map(auditView) };
  }
}
