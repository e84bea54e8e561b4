import { Body, Controller, Post } from '@nestjs/common';
import { LogsRequestDto, LogsResponseDto } from '@sift/api-contracts';
import { Endpoint } from '../http/endpoint.decorator';
import { Ctx, RequestContext } from '../caller/request-context';
import { LogsService } from './logs.service';

@Controller()
export class LogsController {
  constructor(private readonly logsService: LogsService) {}

  @Post('logs')
  @Endpoint({
    tag: 'account',
    summary: 'Request logs of the account, newest first (paid plans)',
    response: LogsResponseDto,
    errors: { 403: 'Logs require a paid plan' },
  })
  logs(@Ctx() context: RequestContext, @Body() body: LogsRequestDto): Promise<LogsResponseDto> {
    return this.logsService.list(context, body);
  }
}
