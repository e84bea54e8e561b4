import { ApiProperty } from '@nestjs/swagger';
import { MemberDto } from './member.dto';

export class MembersResponseDto {
  @ApiProperty({ type: [MemberDto] })
  members!: MemberDto[];
}
