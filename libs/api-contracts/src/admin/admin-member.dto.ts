import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsUUID } from 'class-validator';
import { IsOptionalNotNull } from '../common/is-optional-not-null.decorator';
import { MemberDto } from '../team/member.dto';
import { NewMemberEmailField, NewMemberNameField } from '../team/new-member-fields.decorator';
import { TEAM_ROLES, TeamRole } from '../team/team.constants';

export class AdminAddMemberRequestDto {
  @NewMemberEmailField('dev@example.com')
  email!: string;

  @NewMemberNameField()
  name?: string;

  @ApiPropertyOptional({ enum: TEAM_ROLES, default: 'member', description: 'owner only for an account that has none; later owners come by transfer.' })
  @IsOptionalNotNull()
  @IsIn(TEAM_ROLES)
  role?: TeamRole;
}

export class AdminMembersResponseDto {
  @ApiProperty({ example: 'acme' })
  account!: string;

  @ApiProperty({ type: [MemberDto] })
  members!: MemberDto[];
}

export class AdminTransferOwnershipRequestDto {
  @ApiProperty({ format: 'uuid', description: 'The member who becomes the owner; the previous owner becomes an admin.' })
  @IsUUID()
  member_id!: string;
}

export class AdminOwnershipResponseDto {
  @ApiProperty({ example: 'acme' })
  account!: string;

  @ApiProperty({ format: 'uuid' })
  owner_id!: string;
}
