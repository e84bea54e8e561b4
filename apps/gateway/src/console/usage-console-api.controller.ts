import { Controller, Get, Header, Param, ParseUUIDPipe, Query, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../caller/route-access.decorator';
import { AccountsQueryDto, LatencyQueryDto, RequestsQueryDto, UsageQueryDto } from './console-query.dto';
import type { AccountsView, KeysView, LatencyView, QueuesView, RequestsView, UsageView } from './console-views';
import { OperatorConsoleGuard } from './operator-console.guard';
import { UsageConsoleService } from './usage-console.service';

/**
 * The usage console's read-only data, for its page and for operators' scripts. Public to the tenant guard (no API
 * key is asked for), guarded by the operator's ADMIN_TOKEN instead. Not in the tenant API's OpenAPI document. Answers
 * are never cached: they name accounts and keys.
 */
@Public()
@UseGuards(OperatorConsoleGuard)
@ApiExcludeController()
@Controller('admin/console/api')
export class UsageConsoleApiController {
  constructor(private readonly console: UsageConsoleService) {}

  @Get('usage')
  @Header('Cache-Control', 'no-store')
  usage(@Query() query: UsageQueryDto): Promise<UsageView> {
    return this.console.usage(query);
  }

  @Get('latency')
  @Header('Cache-Control', 'no-store')
  latency(@Query() query: LatencyQueryDto): Promise<LatencyView> {
    return this.console.latency(query);
  }

  @Get('requests')
  @Header('Cache-Control', 'no-store')
  requests(@Query() query: RequestsQueryDto): Promise<RequestsView> {
    return this.console.requests(query);
  }

  @Get('accounts')
  @Header('Cache-Control', 'no-store')
  accounts(@Query() query: AccountsQueryDto): Promise<AccountsView> {
    return this.console.accounts(query);
  }

  @Get('accounts/:accountId/keys')
  @Header('Cache-Control', 'no-store')
  keys(@Param('accountId', new ParseUUIDPipe()) accountId: string): Promise<KeysView> {
    return this.console.keys(accountId);
  }

  @Get('queues')
  @Header('Cache-Control', 'no-store')
  queues(): Promise<QueuesView> {
    return this.console.queues();
  }
}
