import { Body, Controller, Post } from '@nestjs/common';
import { SEARCH_REQUEST_EXAMPLE, SearchRequestDto, SearchResponseDto } from '@sift/api-contracts';
import { Endpoint } from '../http/endpoint.decorator';
import { Ctx, RequestContext } from '../caller/request-context';
import type { RequestOutcome } from '../request-log/request-outcome';
import { ExplicitFields } from './explicit-fields.decorator';
import { SearchService } from './search.service';
import { PayPerRequest } from '../payments/pay-per-request.decorator';
import { asksForAdvancedDepth } from '../payments/payable-request';

@Controller()
export class SearchController {
  constructor(private readonly searchService: SearchService) {}

  @Post('search')
  @Endpoint({
    tag: 'data',
    operationId: 'search',
    summary: 'Search the local index and the configured upstream engines',
    description:
      'Ranked, scored results with query-related chunks, optionally an answer, images and raw content. Result ids are ' +
      'version-5 UUIDs of the canonical URL in the namespace of request_id (usable in feedback). 1 credit; 2 at advanced depth.',
    response: SearchResponseDto,
    body: { type: SearchRequestDto, example: SEARCH_REQUEST_EXAMPLE },
    keyless: true,
    billed: true,
    requestLog: 'search',
  })
  @PayPerRequest(asksForAdvancedDepth)
  search(@Ctx() context: RequestContext, @Body() body: SearchRequestDto, @ExplicitFields() explicitFields: ReadonlySet<string>): Promise<RequestOutcome<SearchResponseDto>> {
    return this.searchService.search(context, body, explicitFields);
  }
}
