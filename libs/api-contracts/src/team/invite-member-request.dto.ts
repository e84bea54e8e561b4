import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsString, MaxLength } from 'class-validator';
import { IsOptionalNotNull } from '../common/is-optional-not-null.decorator';
import { INVITABLE_TEAM_ROLES, InvitableTeamRole } from './team.constants';

export class InviteMemberRequestDto {
  @ApiProperty({ example: 'ada@example.com' })
  @IsEmail()
  email!: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(200)
  name?: string;

  @ApiProperty({ enum: INVITABLE_TEAM_ROLES })
  @IsIn(INVITABLE_TEAM_ROLES)
  role!: InvitableTeamRole;
}
