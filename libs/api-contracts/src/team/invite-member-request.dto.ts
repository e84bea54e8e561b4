import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { NewMemberEmailField, NewMemberNameField } from './new-member-fields.decorator';
import { INVITABLE_TEAM_ROLES, InvitableTeamRole } from './team.constants';

export class InviteMemberRequestDto {
  @NewMemberEmailField('ada@example.com')
  email!: string;

  @NewMemberNameField()
  name?: string;

  @ApiProperty({ enum: INVITABLE_TEAM_ROLES })
  @IsIn(INVITABLE_TEAM_ROLES)
  role!: InvitableTeamRole;
}
