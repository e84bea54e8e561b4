import { Body, Controller, Post } from '@nestjs/common';
import { LOGS_REQUEST_EXAMPLE, LogsRequestDto, LogsResponseDto } from '@sift/api-contracts';
import { Endpoint } from '../http/endpoint.decorator';
import { Ctx, RequestContext } from '../caller/request-context';
import { LogsService } from './logs.service';

@Controller()
export class LogsController {
  constructor(private readonly logsService: LogsService) {}

  @Post('logs')
  @Endpoint({
    tag: 'account',
    operationId: 'logs',
    summary: 'Request logs of the account, newest first (paid plans)',
    response: LogsResponseDto,
    body: { type: LogsRequestDto, example: LOGS_REQUEST_EXAMPLE },
    errors: { 403: 'Logs require a paid plan' },
  })
  logs(@Ctx() context: RequestContext, @Body() body: LogsRequestDto): Promise<LogsResponseDto> {
    return this.logsService.list(context, body);
  }
}
