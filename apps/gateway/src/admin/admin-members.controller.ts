import { Body, Controller, Get, Inject, Param, Post, Req } from '@nestjs/common';
import { AdminAddMemberRequestDto, AdminMembersResponseDto, AdminOwnershipResponseDto, AdminTransferOwnershipRequestDto, MemberDto } from '@sift/api-contracts';
import type { AdminServices } from '@sift/admin';
import { AdminEndpoint } from './admin-endpoint.decorator';
import { ADMIN_SERVICES } from './admin-services.provider';
import { memberView } from './admin-views';
import { OperatorOnly, operatorOf } from './operator.guard';

@Controller('admin/accounts/:account')
@OperatorOnly()
export class AdminMembersController {
  constructor(@Inject(ADMIN_SERVICES) private readonly admin: AdminServices) {}

  @Get('members')
  @AdminEndpoint({ operationId: 'adminListMembers', summary: "List an account's team members", response: AdminMembersResponseDto, errors: { 404: 'No account of that name or id' } })
  async listMembers(@Param('account') reference: string): Promise<AdminMembersResponseDto> {
    const { account, members } = await this.admin.members.list(reference);
    return { account: account.name, members: members.map(memberView) };
  }

  @Post('members')
  @AdminEndpoint({
    operationId: 'adminAddMember',
    summary: 'Add a team member',
    description: 'The operator may make the first owner of an account; later owners come by transfer. A key for the member: POST /admin/accounts/{account}/keys with `member`.',
    response: MemberDto,
    status: 201,
    body: { type: AdminAddMemberRequestDto, example: { email: 'dev@example.com', role: 'member' } },
    errors: { 404: 'No account of that name or id', 409: 'The e-mail is a member already, or the account has an owner already' },
  })
  async addMember(@Req() request: object, @Param('account') reference: string, @Body() body: AdminAddMemberRequestDto): Promise<MemberDto> {
    const { member } = await this.admin.members.add(operatorOf(request), reference, { email: body.email, name: body.name ?? null, role: body.role ?? 'member' });
    return memberView(member);
  }

  @Post('ownership')
  @AdminEndpoint({
    operationId: 'adminTransferOwnership',
    summary: 'Make a member the owner; the previous owner becomes an admin',
    response: AdminOwnershipResponseDto,
    body: { type: AdminTransferOwnershipRequestDto, example: { member_id: '00000000-0000-4000-8000-000000000000' } },
    errors: { 404: 'No account, no such member in it, or no owner to transfer from', 409: "The team's rules refuse the transfer" },
  })
  async transferOwnership(@Req() request: object, @Param('account') reference: string, @Body() body: AdminTransferOwnershipRequestDto): Promise<AdminOwnershipResponseDto> {
    const { account, ownerId } = await this.admin.members.transferOwnership(operatorOf(request), reference, body.member_id);
    return { account: account.name, owner_id: ownerId };
  }
}
