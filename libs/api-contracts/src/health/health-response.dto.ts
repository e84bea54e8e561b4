import { ApiProperty } from '@nestjs/swagger';

export const HEALTH_STATUSES = ['ok', 'error'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

/** Answer of GET /health: overall status is ok only when every dependency is. */
export class HealthResponseDto {
  @ApiProperty({ enum: HEALTH_STATUSES })
  status!: HealthStatus;

  @ApiProperty({ enum: HEALTH_STATUSES })
  postgres!: HealthStatus;

  @ApiProperty({ enum: HEALTH_STATUSES })
  redis!: HealthStatus;
}
