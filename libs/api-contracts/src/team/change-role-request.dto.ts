import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { TEAM_ROLES, TeamRole } from './team.constants';

/** Setting `owner` transfers ownership; whether the caller may do that is checked by the service. */
export class ChangeRoleRequestDto {
  @ApiProperty({ enum: TEAM_ROLES })
  @IsIn(TEAM_ROLES)
  role!: TeamRole;
}
