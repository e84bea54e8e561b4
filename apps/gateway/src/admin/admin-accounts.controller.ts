import { Body, Controller, Get, Inject, Param, Patch, Post, Req } from '@nestjs/common';
import {
  AdminAccountDto,
  AdminAccountsResponseDto,
  AdminCreateAccountRequestDto,
  AdminPlansResponseDto,
  AdminUpdateAccountRequestDto,
} from '@sift/api-contracts';
import type { AdminServices } from '@sift/admin';
import { CallerAuthentication } from '../caller/caller-authentication.service';
import { AdminEndpoint } from './admin-endpoint.decorator';
import { ADMIN_SERVICES } from './admin-services.provider';
import { accountView, planView } from './admin-views';
import { OperatorOnly, operatorOf } from './operator.guard';

const NO_ACCOUNT = 'No account of that name or id';

@Controller('admin')
@OperatorOnly()
export class AdminAccountsController {
  constructor(
    @Inject(ADMIN_SERVICES) private readonly admin: AdminServices,
    private readonly authentication: CallerAuthentication,
  ) {}

  @Get('plans')
  @AdminEndpoint({ operationId: 'adminListPlans', summary: 'List the plans and their monthly credits', response: AdminPlansResponseDto })
  async listPlans(): Promise<AdminPlansResponseDto> {
    return { plans: (await this.admin.accounts.listPlans()).map(planView) };
  }

  @Get('accounts')
  @AdminEndpoint({ operationId: 'adminListAccounts', summary: 'List every account with its plan and settings', response: AdminAccountsResponseDto })
  async listAccounts(): Promise<AdminAccountsResponseDto> {
    return { accounts: (await this.admin.accounts.listAccounts()).map(accountView) };
  }

  @Post('accounts')
  @AdminEndpoint({
    operationId: 'adminCreateAccount',
    summary: 'Create an account',
    description: 'Its keys come next: POST /admin/accounts/{account}/keys.',
    response: AdminAccountDto,
    status: 201,
    body: { type: AdminCreateAccountRequestDto, example: { name: 'acme', plan: 'growth' } },
    errors: { 409: 'An account of that name exists already' },
  })
  async createAccount(@Req() request: object, @Body() body: AdminCreateAccountRequestDto): Promise<AdminAccountDto> {
    const account = await this.admin.accounts.create(operatorOf(request), {
      name: body.name,
      plan: body.plan,
      paygoLimit: body.paygo_limit,
      zeroDataRetention: body.zero_data_retention,
    });
    return accountView(account);
  }

  @Patch('accounts/:account')
  @AdminEndpoint({
    operationId: 'adminUpdateAccount',
    summary: "Change an account's plan, zero data retention or pay-as-you-go ceiling",
    description: 'The account is named by its name or id. Its keys see the change on their next request to this gateway.',
    response: AdminAccountDto,
    body: { type: AdminUpdateAccountRequestDto, example: { plan: 'enterprise', zero_data_retention: true, paygo_limit: 5000 } },
    errors: { 404: NO_ACCOUNT },
  })
  async updateAccount(@Req() request: object, @Param('account') reference: string, @Body() body: AdminUpdateAccountRequestDto): Promise<AdminAccountDto> {
    const account = await this.admin.accounts.update(operatorOf(request), reference, {
      plan: body.plan,
      zeroDataRetention: body.zero_data_retention,
      paygoLimit: body.paygo_limit,
    });
    // Keys are cached for a few seconds with their account's settings; these keys take the new ones at once.
    for (const key of (await this.admin.keys.list(account.id)).keys) this.authentication.forgetKey(key.id);
    return accountView(account);
  }
}
