import { Module } from '@nestjs/common';
import { MeteringService } from './billing/metering.service';
import { CrawlController } from './crawl/crawl.controller';
import { CrawlService } from './crawl/crawl.service';
import { SiteTraversal } from './crawl/site-traversal';
import { ExtractController } from './extract/extract.controller';
import { ExtractService } from './extract/extract.service';
import { MapController } from './map/map.controller';
import { MapService } from './map/map.service';
import { McpController } from './mcp/mcp.controller';
import { McpService } from './mcp/mcp.service';
import { PagesModule } from './pages/pages.module';
import { ResearchModule } from './research/research.module';
import { SearchController } from './search/search.controller';
import { SearchService } from './search/search.service';
import { SearchAnswerService } from './search/search-answer.service';
import { SourceContentService } from './search/source-content.service';

/** Search, extract, crawl, map, research and the MCP tool server over them: validate, meter, enqueue to the workers, wait, answer. */
@Module({
  imports: [PagesModule, ResearchModule],
  controllers: [SearchController, ExtractController, CrawlController, MapController, McpController],
  providers: [
    MeteringService,
    SearchService,
    SourceContentService,
    SearchAnswerService,
    ExtractService,
    SiteTraversal,
    CrawlService,
    MapService,
    McpService,
  ],
})
export class DataPlaneModule {}
