import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { GATEWAY_CONFIG, type GatewayAppConfig } from '../core/core.module';
import { Public } from '../caller/route-access.decorator';
import { MetricsExposition } from './metrics-exposition';

/** GET /metrics on the gateway's port, unless METRICS_PORT moves it to a port of its own. */
@Controller()
export class MetricsController {
  constructor(
    private readonly exposition: MetricsExposition,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayAppConfig,
  ) {}

  @Public()
  @Get('metrics')
  @ApiExcludeEndpoint()
  async metrics(@Req() request: Request, @Res() response: Response): Promise<void> {
    if (this.config.METRICS_PORT !== 0) {
      response.status(404).json({ detail: { error: `Metrics are served on port ${this.config.METRICS_PORT}.` } });
      return;
    }
    const answer = await this.exposition.answer(request.headers);
    response.status(answer.status).type(answer.contentType).send(answer.body);
  }
}
