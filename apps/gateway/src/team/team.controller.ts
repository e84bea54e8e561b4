import { Body, Controller, Delete, Get, Param, ParseUUIDPipe, Patch, Post } from '@nestjs/common';
import { ChangeRoleRequestDto, InviteMemberRequestDto, MemberDto, MembersResponseDto } from '@sift/api-contracts';
import { Endpoint } from '../http/endpoint.decorator';
import { Ctx, RequestContext } from '../caller/request-context';
import { TeamService } from './team.service';

const ROLE_ERRORS = { 403: 'Your role does not allow this', 404: 'No such member', 409: 'Would break a team rule (one owner, unique e-mail)' };

@Controller('team/members')
export class TeamController {
  constructor(private readonly teamService: TeamService) {}

  @Get()
  @Endpoint({ tag: 'team', operationId: 'listTeamMembers', summary: 'List team members (every role)', response: MembersResponseDto })
  list(@Ctx() context: RequestContext): Promise<MembersResponseDto> {
    return this.teamService.list(context);
  }

  @Post()
  @Endpoint({ tag: 'team', operationId: 'inviteTeamMember', summary: 'Invite a member (owner, admin)', response: MemberDto, errors: ROLE_ERRORS })
  invite(@Ctx() context: RequestContext, @Body() body: InviteMemberRequestDto): Promise<MemberDto> {
    return this.teamService.invite(context, body);
  }

  @Patch(':memberId')
  @Endpoint({
    tag: 'team',
    operationId: 'changeTeamMemberRole',
    summary: "Change a member's role (owner, admin); role owner transfers ownership (owner only)",
    response: MembersResponseDto,
    errors: ROLE_ERRORS,
  })
  changeRole(
    @Ctx() context: RequestContext,
    @Param('memberId', new ParseUUIDPipe()) memberId: string,
    @Body() body: ChangeRoleRequestDto,
  ): Promise<MembersResponseDto> {
    return this.teamService.changeRole(context, memberId, body);
  }

  @Delete(':memberId')
  @Endpoint({ tag: 'team', operationId: 'removeTeamMember', summary: 'Remove a member (owner, admin; never the owner)', response: MembersResponseDto, errors: ROLE_ERRORS })
  remove(@Ctx() context: RequestContext, @Param('memberId', new ParseUUIDPipe()) memberId: string): Promise<MembersResponseDto> {
    return this.teamService.remove(context, memberId);
  }
}
