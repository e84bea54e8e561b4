import { ApiProperty } from '@nestjs/swagger';

/** Credits per endpoint in the current billing period; the key and the account report the same breakdown. */
export class EndpointUsageDto {
  @ApiProperty({ type: 'integer' })
  search_usage!: number;

  @ApiProperty({ type: 'integer' })
  extract_usage!: number;

  @ApiProperty({ type: 'integer' })
  crawl_usage!: number;

  @ApiProperty({ type: 'integer' })
  map_usage!: number;

  @ApiProperty({ type: 'integer' })
  research_usage!: number;
}

/** Credits consumed by the calling API key in the current billing period. */
export class KeyUsageDto extends EndpointUsageDto {
  @ApiProperty({ type: 'integer', description: 'Credits used by this key.', example: 120 })
  usage!: number;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Credit limit of this key; null when unlimited.' })
  limit!: number | null;
}

/** Credits consumed by the whole account in the current billing period. */
export class AccountUsageDto extends EndpointUsageDto {
  @ApiProperty({ description: 'Plan name.', example: 'Researcher' })
  current_plan!: string;

  @ApiProperty({ type: 'integer', description: 'Credits used from the monthly plan allowance.' })
  plan_usage!: number;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Monthly plan allowance; null when custom or unlimited.' })
  plan_limit!: number | null;

  @ApiProperty({ type: 'integer', description: 'Pay-as-you-go credits used.' })
  paygo_usage!: number;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Pay-as-you-go limit; null when none is set.' })
  paygo_limit!: number | null;
}

/** Answer of GET /usage. With X-Project-ID, both objects are scoped to that project. */
export class UsageResponseDto {
  @ApiProperty({ type: KeyUsageDto })
  key!: KeyUsageDto;

  @ApiProperty({ type: AccountUsageDto })
  account!: AccountUsageDto;
}
