import { ApiProperty } from '@nestjs/swagger';

/** The `usage` object of a response, present only when the request set `include_usage: true`. */
export class UsageCreditsDto {
  @ApiProperty({ description: 'Credits charged for this request.', example: 1 })
  credits!: number;
}
