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
  @ApiOperation({
    operationId: 'health',
    summary: 'Readiness: 200 when Postgres and Redis answer (status "degraded" when a queue has no responsive worker), 503 otherwise',
    description:
      'Status "degraded" (still 200) when a queue has no responsive worker: none is connected, or every connected one has stopped beating (a job blocks its event loop). ' +
      'The gateway itself still serves every request that does not need that queue, and taking it out of rotation would not unblock a worker; the stuck worker reports itself on its own /health (503). ' +
      'Answers within about a second even when a dependency hangs.',
  })
  @ApiOkResponse({ type: HealthResponseDto })
  @ApiServiceUnavailableResponse({ type: HealthResponseDto })
  async health(@Res() response: Response): Promise<void> {
    // All three at once, each bounded by CHECK_TIMEOUT_MS: the answer comes within about a second whatever hangs.
    const [postgres, redis, consumers] = await Promise.all([this.postgres(), checkRedis(this.redis, CHECK_TIMEOUT_MS), this.queues()]);
    const queues = redis.ok ? consumers : null;
    const reachable = postgres === 'ok' && redis.ok;
    const staffed = queues !== null && Object.values(queues).every((queue) => queue.responsive > 0);
    const status: HealthStatus = !reachable ? 'error' : staffed ? 'ok' : 'degraded';
    const body: HealthResponseDto = { status, postgres, redis: redis.ok ? 'ok' : 'unreachable', queues };
    response.status(reachable ? 200 : 503).json(body);
  }

  private async postgres(): Promise<DependencyStatus> {
    return (await this.database.answers(CHECK_TIMEOUT_MS)) ? 'ok' : 'unreachable';
  }

  private async queues(): Promise<Record<string, QueueHealthDto> | null> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const counts = await Promise.race([
        this.jobQueue.consumers(Object.values(QueueName)),
        new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), CHECK_TIMEOUT_MS))),
      ]);
      return counts === null ? null : Object.fromEntries(counts.map(({ queue, consumers, responsive }) => [queue, { consumers, responsive }]));
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }
}
