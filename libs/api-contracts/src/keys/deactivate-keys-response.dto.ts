import { ApiProperty } from '@nestjs/swagger';

export class DeactivatedKeyDto {
  @ApiProperty()
  id!: string;

  @ApiProperty({ description: 'Public prefix of the key.', example: 'sift-prod-' })
  prefix!: string;

  @ApiProperty({ description: 'Last four characters of the key.', example: 'a1b2' })
  last_four!: string;
}

export class DeactivateKeysResponseDto {
  @ApiProperty({ type: [DeactivatedKeyDto] })
  deactivated!: DeactivatedKeyDto[];

  @ApiProperty({ type: [String], description: 'Requested keys or ids that match no key of the organization.' })
  not_found!: string[];

  @ApiProperty()
  request_id!: string;

  @ApiProperty({ description: 'Seconds.' })
  response_time!: number;
}
