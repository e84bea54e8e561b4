import { ApiProperty } from '@nestjs/swagger';
import { TEAM_ROLES, TeamRole } from './team.constants';

export class MemberDto {
  @ApiProperty()
  id!: string;

  @ApiProperty({ example: 'ada@example.com' })
  email!: string;

  @ApiProperty({ type: String, nullable: true })
  name!: string | null;

  @ApiProperty({ enum: TEAM_ROLES })
  role!: TeamRole;

  @ApiProperty({ description: 'ISO 8601 date-time.' })
  created_at!: string;
}
