import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, IsString, MaxLength, Min, MinLength } from 'class-validator';
import { IsOptionalNotNull } from '../common/is-optional-not-null.decorator';
import { ADMIN_LIMITS } from './admin.constants';

export class AdminPlanDto {
  @ApiProperty({ example: 'growth' })
  id!: string;

  @ApiProperty({ example: 'Growth' })
  name!: string;

  @ApiProperty({ type: 'integer', nullable: true, description: 'null: no monthly cap (self-hosted, enterprise).' })
  monthly_credits!: number | null;

  @ApiProperty({ type: 'integer', nullable: true })
  price_usd_cents!: number | null;

  @ApiProperty()
  paid!: boolean;
}

export class AdminPlansResponseDto {
  @ApiProperty({ type: [AdminPlanDto] })
  plans!: AdminPlanDto[];
}

export class AdminAccountDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'acme' })
  name!: string;

  @ApiProperty({ example: 'growth' })
  plan!: string;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Monthly pay-as-you-go ceiling in credits; null: pay-as-you-go off.' })
  paygo_limit!: number | null;

  @ApiProperty()
  zero_data_retention!: boolean;

  @ApiProperty({ description: 'ISO 8601 date-time.' })
  created_at!: string;
}

export class AdminAccountsResponseDto {
  @ApiProperty({ type: [AdminAccountDto] })
  accounts!: AdminAccountDto[];
}

export class AdminCreateAccountRequestDto {
  @ApiProperty({ example: 'acme', maxLength: ADMIN_LIMITS.accountNameCharacters })
  @IsString()
  @MinLength(1)
  @MaxLength(ADMIN_LIMITS.accountNameCharacters)
  name!: string;

  @ApiPropertyOptional({ example: 'growth', description: 'A plan id of GET /admin/plans. Absent: self-hosted (no monthly cap).' })
  @IsOptionalNotNull()
  @IsString()
  plan?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Monthly pay-as-you-go ceiling in credits. Absent: pay-as-you-go off.' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(0)
  paygo_limit?: number;

  @ApiPropertyOptional({ default: false, description: 'Store nothing of this account\'s requests and pages.' })
  @IsOptionalNotNull()
  @IsBoolean()
  zero_data_retention?: boolean;
}

/** Each field present is changed; absent fields stay as they are. */
export class AdminUpdateAccountRequestDto {
  @ApiPropertyOptional({ example: 'enterprise', description: 'Move the account to this plan.' })
  @IsOptionalNotNull()
  @IsString()
  plan?: string;

  @ApiPropertyOptional({ description: 'Turn zero data retention on or off.' })
  @IsOptionalNotNull()
  @IsBoolean()
  zero_data_retention?: boolean;

  // null is a value here: it turns pay-as-you-go off.
  @ApiPropertyOptional({ type: 'integer', minimum: 0, nullable: true, example: 5000, description: 'Monthly pay-as-you-go ceiling in credits; null turns pay-as-you-go off.' })
  @IsOptional()
  @IsInt()
  @Min(0)
  paygo_limit?: number | null;
}
