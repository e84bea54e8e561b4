import { Body, Controller, Post } from '@nestjs/common';
import { MAP_REQUEST_EXAMPLE, MapRequestDto, MapResponseDto } from '@sift/api-contracts';
import { Endpoint } from '../http/endpoint.decorator';
import { Ctx, RequestContext } from '../caller/request-context';
import type { RequestOutcome } from '../request-log/request-outcome';
import { RateLimitCategory } from '../caller/route-access.decorator';
import { MapService } from './map.service';

@Controller()
export class MapController {
  constructor(private readonly mapService: MapService) {}

  @Post('map')
  @RateLimitCategory('crawl')
  @Endpoint({
    tag: 'data',
    operationId: 'map',
    summary: "Discover a site's URLs (links, robots.txt sitemaps, /sitemap.xml) without extracting content",
    response: MapResponseDto,
    body: { type: MapRequestDto, example: MAP_REQUEST_EXAMPLE, fetches: MAP_REQUEST_EXAMPLE.url },
    billed: true,
    requestLog: 'map',
    errors: { 400: 'no starting url provided / invalid pattern', 403: 'URL is not supported' },
  })
  map(@Ctx() context: RequestContext, @Body() body: MapRequestDto): Promise<RequestOutcome<MapResponseDto>> {
    return this.mapService.map(context, body);
  }
}
