import { Body, Controller, Post } from '@nestjs/common';
import { CRAWL_REQUEST_EXAMPLE, CrawlRequestDto, CrawlResponseDto } from '@sift/api-contracts';
import { Endpoint } from '../http/endpoint.decorator';
import { Ctx, RequestContext } from '../caller/request-context';
import type { RequestOutcome } from '../request-log/request-outcome';
import { RateLimitCategory } from '../caller/route-access.decorator';
import { CrawlService } from './crawl.service';

@Controller()
export class CrawlController {
  constructor(private readonly crawlService: CrawlService) {}

  @Post('crawl')
  @RateLimitCategory('crawl')
  @Endpoint({
    tag: 'data',
    operationId: 'crawl',
    summary: 'Crawl a site from a root URL, breadth-first, optionally guided by instructions',
    description: 'A crawl that reaches its timeout returns the pages gathered so far.',
    response: CrawlResponseDto,
    body: { type: CrawlRequestDto, example: CRAWL_REQUEST_EXAMPLE, fetches: CRAWL_REQUEST_EXAMPLE.url },
    billed: true,
    requestLog: 'crawl',
    errors: { 400: 'no starting url provided / invalid pattern', 403: 'URL is not supported' },
  })
  crawl(@Ctx() context: RequestContext, @Body() body: CrawlRequestDto): Promise<RequestOutcome<CrawlResponseDto>> {
    return this.crawlService.crawl(context, body);
  }
}
