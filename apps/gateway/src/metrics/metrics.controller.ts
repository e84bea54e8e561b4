import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import { register } from 'prom-client';
import { Public } from '../caller/route-access.decorator';

@Controller()
export class MetricsController {
  @Public()
  @Get('metrics')
  @ApiExcludeEndpoint()
  @Header('Content-Type', register.contentType)
  metrics(): Promise<string> {
    return register.metrics();
  }
}
