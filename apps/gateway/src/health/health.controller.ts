import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Redis } from 'ioredis';
import { DependencyStatus, HealthResponseDto, HealthStatus, QueueHealthDto } from '@sift/api-contracts';
import { DatabaseProbe } from '@sift/persistence';
import { checkRedis, JobQueue } from '@sift/queue';
import { QueueName } from '@sift/queue-contracts';
import { Public } from '../caller/route-access.decorator';
import { REDIS } from '../core/core.module';

/** A health check answers within this even when a dependency hangs. */
const CHECK_TIMEOUT_MS = 1_000;

@ApiTags('operations')
@ApiExtraModels(QueueHealthDto)
@Controller()
export class HealthController {
  constructor(
    private readonly database: DatabaseProbe,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly jobQueue: JobQueue,
  ) {}

  @Public()
  @Get('health')
  @ApiOperation({ operationId: 'health', summary: 'Readiness: 200 when Postgres and Redis answer (status "degraded" when a queue has no worker), 503 otherwise' })
  @ApiOkResponse({ type: HealthResponseDto })
  @ApiServiceUnavailableResponse({ type: HealthResponseDto })
  async health(@Res() response: Response): Promise<void> {
    const [postgres, redis] = await Promise.all([this.postgres(), checkRedis(this.redis, CHECK_TIMEOUT_MS)]);
    const queues = redis.ok ? await this.queues() : null;
    const reachable = postgres === 'ok' && redis.ok;
    const staffed = queues !== null && Object.values(queues).every((queue) => queue.consumers > 0);
    const status: HealthStatus = !reachable ? 'error' : staffed ? 'ok' : 'degraded';
    const body: HealthResponseDto = { status, postgres, redis: redis.ok ? 'ok' : 'unreachable', queues };
    response.status(reachable ? 200 : 503).json(body);
  }

  private async postgres(): Promise<DependencyStatus> {
    return (await this.database.answers(CHECK_TIMEOUT_MS)) ? 'ok' : 'unreachable';
  }

  private async queues(): Promise<Record<string, QueueHealthDto> | null> {
    try {
      const counts = await this.jobQueue.consumers(Object.values(QueueName));
      return Object.fromEntries(counts.map(({ queue, consumers }) => [queue, { consumers }]));
    } catch {
      return null;
    }
  }
}
