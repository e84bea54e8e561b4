import { Injectable } from '@nestjs/common';
import { ChangeRoleRequestDto, InviteMemberRequestDto, MemberDto, MembersResponseDto } from '@sift/api-contracts';
import { TeamActor, TeamService as TeamRules } from '@sift/auth';
import type { MemberRecord } from '@sift/persistence';
import { CallerAuthentication } from '../caller/caller-authentication.service';
import { keyedCaller, RequestContext } from '../caller/request-context';
import { teamActorOf, underTeamRules } from './team-rules';

/** Team management over HTTP; the role rules live in @sift/auth's TeamService. */
@Injectable()
export class TeamService {
  constructor(
    private readonly rules: TeamRules,
    private readonly authentication: CallerAuthentication,
  ) {}

  async list(context: RequestContext): Promise<MembersResponseDto> {
    const members = await underTeamRules(() => this.rules.listMembers(actorOf(context)));
    return { members: members.map(toDto) };
  }

  async invite(context: RequestContext, body: InviteMemberRequestDto): Promise<MemberDto> {
    return toDto(await underTeamRules(() => this.rules.addMember(actorOf(context), { email: body.email, name: body.name ?? null, role: body.role })));
  }

  async changeRole(context: RequestContext, memberId: string, body: ChangeRoleRequestDto): Promise<MembersResponseDto> {
    const actor = actorOf(context);
    if (body.role === 'owner') await underTeamRules(() => this.rules.transferOwnership(actor, memberId));
    else await underTeamRules(() => this.rules.changeRole(actor, memberId, body.role as 'admin' | 'member'));
    return this.list(context);
  }

  async remove(context: RequestContext, memberId: string): Promise<MembersResponseDto> {
    await underTeamRules(() => this.rules.removeMember(actorOf(context), memberId));
    // The removed member's keys were deactivated with it; this gateway stops honouring them at once.
    this.authentication.forgetMember(memberId);
    return this.list(context);
  }
}

function actorOf(context: RequestContext): TeamActor {
  return teamActorOf(keyedCaller(context));
}

function toDto(member: MemberRecord): MemberDto {
  return { id: member.id, email: member.email, name: member.name, role: member.role, created_at: member.createdAt.toISOString() };
}
