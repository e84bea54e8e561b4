import { ApiProperty } from '@nestjs/swagger';

export class DeactivatedKeyDto {
  @ApiProperty()
  id!: string;

  @ApiProperty({ description: 'Public prefix of the key.', example: 'sift-prod-a1b2' })
  prefix!: string;

  @ApiProperty({ description: 'Last four characters of the key.', example: 'a1b2' })
  last_four!: string;
}

/** Tavily's `message`, plus which keys were deactivated and which requested ones match no key. */
export class DeactivateKeysResponseDto {
  @ApiProperty({ example: 'Successfully deactivated 5 key(s)' })
  message!: string;

  @ApiProperty({ type: [DeactivatedKeyDto] })
  deactivated!: DeactivatedKeyDto[];

  @ApiProperty({ type: [String], description: 'Requested request_id, keys (shown as ****last4) or ids that match no active key of the organization.' })
  not_found!: string[];

  @ApiProperty({ description: 'Id of this deactivation request (not the generation request_id sent in the body).' })
  request_id!: string;

  @ApiProperty({ description: 'Seconds.' })
  response_time!: number;
}
