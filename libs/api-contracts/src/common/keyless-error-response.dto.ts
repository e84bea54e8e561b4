import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** One way to continue, typed as official clients read it (`type` names the path, e.g. "signup"). */
export class KeylessNextActionDto {
  @ApiProperty({ description: 'Kind of continuation: signup (use an API key) or retry_later.', example: 'signup' })
  type!: string;

  @ApiProperty({ description: 'What to do, in plain language.' })
  details!: string;

  @ApiPropertyOptional({ description: 'Seconds to wait, for retry_later.' })
  retry_after_seconds?: number;
}

export class KeylessErrorDto {
  @ApiProperty({ description: 'Which keyless cap was hit.', example: 'keyless_hourly_limit' })
  code!: string;

  @ApiProperty({ description: 'Natural-language explanation and how to continue.', example: 'Keyless limit reached; use an API key to continue.' })
  message!: string;

  @ApiProperty({ description: 'Seconds until the keyless budget refills.', nullable: true, type: Number, example: 3600 })
  retry_after_seconds!: number | null;

  @ApiProperty({ description: 'Ways to continue, for example by using an API key.', type: [KeylessNextActionDto] })
  next_actions!: KeylessNextActionDto[];
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
