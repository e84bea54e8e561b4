import { ApiProperty } from '@nestjs/swagger';

/** ok: everything answers; degraded: the gateway works but a queue has no worker (its requests wait until their deadline); error: Postgres or Redis is down. */
export const HEALTH_STATUSES = ['ok', 'degraded', 'error'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

export const DEPENDENCY_STATUSES = ['ok', 'unreachable'] as const;
export type DependencyStatus = (typeof DEPENDENCY_STATUSES)[number];

export class QueueHealthDto {
  @ApiProperty({ description: 'Workers consuming the queue right now.' })
  consumers!: number;
}

/** Answer of GET /health: 200 unless Postgres or Redis is down (503). */
export class HealthResponseDto {
  @ApiProperty({ enum: HEALTH_STATUSES })
  status!: HealthStatus;

  @ApiProperty({ enum: DEPENDENCY_STATUSES })
  postgres!: DependencyStatus;

  @ApiProperty({ enum: DEPENDENCY_STATUSES })
  redis!: DependencyStatus;

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/QueueHealthDto' },
    nullable: true,
    description: 'Consumers per queue (extract, crawl, research); null while Redis is unreachable.',
    example: { extract: { consumers: 1 }, crawl: { consumers: 1 }, research: { consumers: 1 } },
  })
  queues!: Record<string, QueueHealthDto> | null;
}
