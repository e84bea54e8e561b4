import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { INVITABLE_TEAM_ROLES, InvitableTeamRole } from './team.constants';

export class InviteMemberRequestDto {
  @ApiProperty({ example: 'ada@example.com' })
  @IsEmail()
  email!: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;

  @ApiProperty({ enum: INVITABLE_TEAM_ROLES })
  @IsIn(INVITABLE_TEAM_ROLES)
  role!: InvitableTeamRole;
}
