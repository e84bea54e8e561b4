import { Body, Controller, Get, Inject, Param, Post, Req } from '@nestjs/common';
import {
  AdminCreatedKeyResponseDto,
  AdminCreateKeyRequestDto,
  AdminDeactivatedKeyResponseDto,
  AdminDeactivateKeyRequestDto,
  AdminKeysResponseDto,
} from '@sift/api-contracts';
import type { AdminServices, KeyReference } from '@sift/admin';
import { CallerAuthentication } from '../caller/caller-authentication.service';
import { AdminEndpoint } from './admin-endpoint.decorator';
import { ADMIN_SERVICES } from './admin-services.provider';
import { keyView } from './admin-views';
import { OperatorOnly, operatorOf } from './operator.guard';

@Controller('admin')
@OperatorOnly()
export class AdminKeysController {
  constructor(
    @Inject(ADMIN_SERVICES) private readonly admin: AdminServices,
    private readonly authentication: CallerAuthentication,
  ) {}

  @Get('accounts/:account/keys')
  @AdminEndpoint({
    operationId: 'adminListKeys',
    summary: "List an account's keys (prefix and last four only)",
    response: AdminKeysResponseDto,
    errors: { 404: 'No account of that name or id' },
  })
  async listKeys(@Param('account') reference: string): Promise<AdminKeysResponseDto> {
    const { account, keys } = await this.admin.keys.list(reference);
    return { account: account.name, keys: keys.map(keyView) };
  }

  @Post('accounts/:account/keys')
  @AdminEndpoint({
    operationId: 'adminCreateKey',
    summary: 'Create an API key for an account, or for one of its members',
    description: "The key is in the answer this once; only its hash is stored. With `member` the key acts as that member, with the member's role.",
    response: AdminCreatedKeyResponseDto,
    status: 201,
    body: { type: AdminCreateKeyRequestDto, example: { name: 'default', environment: 'dev' } },
    errors: { 404: 'No account, or no such member in it' },
  })
  async createKey(@Req() request: object, @Param('account') reference: string, @Body() body: AdminCreateKeyRequestDto): Promise<AdminCreatedKeyResponseDto> {
    const created = await this.admin.keys.create(operatorOf(request), {
      account: reference,
      name: body.name,
      environment: body.environment,
      creditLimit: body.credit_limit ?? null,
      member: body.member,
      ttlHours: body.ttl_hours,
    });
    return { api_key: created.apiKey, key: keyView(created.key), account: created.account.name, member_role: created.member?.role ?? null };
  }

  @Post('accounts/:account/keys/:keyId/deactivate')
  @AdminEndpoint({
    operationId: 'adminDeactivateKey',
    summary: 'Deactivate a key by its id',
    response: AdminDeactivatedKeyResponseDto,
    errors: { 404: 'No account, or no active key with that id in it' },
  })
  deactivateKey(@Req() request: object, @Param('account') account: string, @Param('keyId') keyId: string): Promise<AdminDeactivatedKeyResponseDto> {
    return this.deactivate(request, { account, keyId });
  }

  @Post('keys/deactivate')
  @AdminEndpoint({
    operationId: 'adminDeactivateKeyByValue',
    summary: 'Deactivate a key given the key itself',
    description: 'For a key found in a log or a leak, whose id and account are not at hand. The audit records only its prefix and last four.',
    response: AdminDeactivatedKeyResponseDto,
    body: { type: AdminDeactivateKeyRequestDto, example: { api_key: 'sift-dev-paste-the-key-here' } },
    errors: { 404: 'No such key' },
  })
  deactivateKeyByValue(@Req() request: object, @Body() body: AdminDeactivateKeyRequestDto): Promise<AdminDeactivatedKeyResponseDto> {
    return this.deactivate(request, { apiKey: body.api_key });
  }

  private async deactivate(request: object, reference: KeyReference): Promise<AdminDeactivatedKeyResponseDto> {
    const { keyId } = await this.admin.keys.deactivate(operatorOf(request), reference);
    // Refused from the next request on at this gateway; other replicas drop it from their cache within seconds.
    this.authentication.forgetKey(keyId);
    return { id: keyId, status: 'deactivated' };
  }
}
