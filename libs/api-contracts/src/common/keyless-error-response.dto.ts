import { ApiProperty } from '@nestjs/swagger';

export class KeylessErrorDto {
  @ApiProperty({ description: 'Which keyless cap was hit.', example: 'keyless_hourly_limit' })
  code!: string;

  @ApiProperty({ description: 'Natural-language explanation and how to continue.', example: 'Keyless limit reached; use an API key to continue.' })
  message!: string;

  @ApiProperty({ description: 'Seconds until the keyless budget refills.', nullable: true, type: Number, example: 3600 })
  retry_after_seconds!: number | null;

  @ApiProperty({ description: 'Instructions on how to continue, for example by signing up for an API key.', type: [String] })
  next_actions!: string[];
}

/**
 * Returned when a keyless request hits its budget. `@tavily/core` recognises this envelope by
 * `error.code` being a string and turns it into a `TavilyKeylessLimitError`, so the shape differs
 * from `ErrorResponseDto` on purpose.
 */
export class KeylessErrorResponseDto {
  @ApiProperty({ type: KeylessErrorDto })
  error!: KeylessErrorDto;
}
