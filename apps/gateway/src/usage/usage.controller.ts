import { Controller, Get } from '@nestjs/common';
import { UsageResponseDto } from '@sift/api-contracts';
import { BillingService } from '@sift/billing';
import { Endpoint } from '../http/endpoint.decorator';
import { Ctx, keyedCaller, RequestContext } from '../caller/request-context';
import { RateLimitCategory } from '../caller/route-access.decorator';

@Controller()
export class UsageController {
  constructor(private readonly billing: BillingService) {}

  @Get('usage')
  @RateLimitCategory('usage')
  @Endpoint({
    tag: 'account',
    operationId: 'usage',
    summary: 'Credit usage of this key and its account this month (X-Project-ID scopes it)',
    response: UsageResponseDto,
    headers: ['X-Project-ID'],
  })
  usage(@Ctx() context: RequestContext): Promise<UsageResponseDto> {
    const caller = keyedCaller(context);
    return this.billing.usage({ accountId: caller.accountId, apiKeyId: caller.apiKeyId, projectExternalId: context.projectExternalId ?? null });
  }
}
