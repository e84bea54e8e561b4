import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Redis } from 'ioredis';
import { HealthResponseDto } from '@sift/api-contracts';
import { PrismaClient } from '@sift/persistence';
import { Public } from '../caller/route-access.decorator';
import { REDIS } from '../core/core.module';

@ApiTags('operations')
@Controller()
export class HealthController {
  constructor(
    private readonly prisma: PrismaClient,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  @Public()
  @Get('health')
  @ApiOperation({ summary: 'Readiness: 200 when Postgres and Redis answer, 503 otherwise' })
  @ApiOkResponse({ type: HealthResponseDto })
  @ApiServiceUnavailableResponse({ type: HealthResponseDto })
  async health(@Res() response: Response): Promise<void> {
    const [postgres, redis] = await Promise.all([
      this.prisma.$queryRaw`SELECT 1`.then(() => 'ok', () => 'unreachable'),
      this.redis.ping().then((answer) => (answer === 'PONG' ? 'ok' : 'unreachable'), () => 'unreachable'),
    ]);
    const healthy = postgres === 'ok' && redis === 'ok';
    response.status(healthy ? 200 : 503).json({ status: healthy ? 'ok' : 'error', postgres, redis });
  }
}
