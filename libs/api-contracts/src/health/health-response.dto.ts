import { ApiProperty } from '@nestjs/swagger';

/**
 * ok: everything answers; degraded: the gateway works but a queue has no responsive worker (none, or every one stuck
 * on a job that blocks its event loop: the queue's requests wait until their deadline); error: Postgres or Redis is down.
 */
export const HEALTH_STATUSES = ['ok', 'degraded', 'error'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

export const DEPENDENCY_STATUSES = ['ok', 'unreachable'] as const;
export type DependencyStatus = (typeof DEPENDENCY_STATUSES)[number];

export class QueueHealthDto {
  @ApiProperty({ description: 'Workers connected to the queue right now.' })
  consumers!: number;

  @ApiProperty({
    description:
      'Of those, the workers whose event loop beat within the last 5 s. A worker stuck in a job that blocks its event loop stays connected but takes and answers nothing: it counts in consumers, not here.',
  })
  responsive!: number;
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
    description: 'Consumers per queue (extract, crawl, research); null while Redis is unreachable or does not answer within a second.',
    example: { extract: { consumers: 1, responsive: 1 }, crawl: { consumers: 1, responsive: 1 }, research: { consumers: 1, responsive: 1 } },
  })
  queues!: Record<string, QueueHealthDto> | null;
}
