import { Injectable } from '@nestjs/common';
import { ChangeRoleRequestDto, InviteMemberRequestDto, MemberDto, MembersResponseDto } from '@sift/api-contracts';
import { ForbiddenActionError, NotFoundError, TeamActor, TeamConflictError, TeamService as TeamRules } from '@sift/auth';
import type { MemberRecord } from '@sift/persistence';
import { ApiError } from '../http/api-error';
import { keyedCaller, RequestContext } from '../caller/request-context';

/** Team management over HTTP; the role rules live in @sift/auth's TeamService. */
@Injectable()
export class TeamService {
  constructor(private readonly rules: TeamRules) {}

  async list(context: RequestContext): Promise<MembersResponseDto> {
    const members = await this.run(() => this.rules.listMembers(actorOf(context)));
    return { members: members.map(toDto) };
  }

  async invite(context: RequestContext, body: InviteMemberRequestDto): Promise<MemberDto> {
    return toDto(await this.run(() => this.rules.addMember(actorOf(context), { email: body.email, name: body.name ?? null, role: body.role })));
  }

  async changeRole(context: RequestContext, memberId: string, body: ChangeRoleRequestDto): Promise<MembersResponseDto> {
    const actor = actorOf(context);
    if (body.role === 'owner') await this.run(() => this.rules.transferOwnership(actor, memberId));
    else await this.run(() => this.rules.changeRole(actor, memberId, body.role as 'admin' | 'member'));
    return this.list(context);
  }

  async remove(context: RequestContext, memberId: string): Promise<MembersResponseDto> {
    await this.run(() => this.rules.removeMember(actorOf(context), memberId));
    return this.list(context);
  }

  private async run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ForbiddenActionError) throw new ApiError(403, error.message);
      if (error instanceof NotFoundError) throw new ApiError(404, error.message);
      if (error instanceof TeamConflictError) throw new ApiError(409, error.message);
      throw error;
    }
  }
}

/** A key created for a member acts as that member; an account-level key (admin CLI) acts as the operator. */
function actorOf(context: RequestContext): TeamActor {
  const caller = keyedCaller(context);
  return caller.memberId ? { accountId: caller.accountId, memberId: caller.memberId } : { accountId: caller.accountId, operator: true };
}

function toDto(member: MemberRecord): MemberDto {
  return { id: member.id, email: member.email, name: member.name, role: member.role, created_at: member.createdAt.toISOString() };
}
