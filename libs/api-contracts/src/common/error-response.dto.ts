import { ApiProperty } from '@nestjs/swagger';

export class ErrorDetailDto {
  @ApiProperty({ description: 'Human-readable error message.', example: 'Unauthorized: missing or invalid API key.' })
  error!: string;
}

/** The body of every error response: `{ "detail": { "error": "..." } }`. Tavily clients read `detail.error`. */
export class ErrorResponseDto {
  @ApiProperty({ type: ErrorDetailDto })
  detail!: ErrorDetailDto;
}
