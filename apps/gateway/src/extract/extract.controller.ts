import { Body, Controller, Post } from '@nestjs/common';
import { EXTRACT_REQUEST_EXAMPLE, ExtractRequestDto, ExtractResponseDto } from '@sift/api-contracts';
import { Endpoint } from '../http/endpoint.decorator';
import { Ctx, RequestContext } from '../caller/request-context';
import type { RequestOutcome } from '../request-log/request-outcome';
import { ExtractService } from './extract.service';

@Controller()
export class ExtractController {
  constructor(private readonly extractService: ExtractService) {}

  @Post('extract')
  @Endpoint({
    tag: 'data',
    operationId: 'extract',
    summary: 'Extract the cleaned content of up to 20 URLs',
    description: 'Per-URL problems are reported in failed_results and never charged. 1 credit per 5 successful basic extractions, 2 per 5 advanced.',
    response: ExtractResponseDto,
    body: { type: ExtractRequestDto, example: EXTRACT_REQUEST_EXAMPLE, fetches: EXTRACT_REQUEST_EXAMPLE.urls[0] },
    keyless: true,
    billed: true,
    requestLog: 'extract',
  })
  extract(@Ctx() context: RequestContext, @Body() body: ExtractRequestDto): Promise<RequestOutcome<ExtractResponseDto>> {
    return this.extractService.extract(context, body);
  }
}
