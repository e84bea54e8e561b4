import { Module } from '@nestjs/common';
import { MeteringService } from './common/metering.service';
import { CrawlController } from './crawl/crawl.controller';
import { CrawlService } from './crawl/crawl.service';
import { ExtractController } from './extract/extract.controller';
import { ExtractService } from './extract/extract.service';
import { MapController } from './map/map.controller';
import { MapService } from './map/map.service';

/** Extract, crawl and map: validate, meter, enqueue to the workers, wait, answer. */
@Module({
  controllers: [ExtractController, CrawlController, MapController],
  providers: [MeteringService, ExtractService, CrawlService, MapService],
})
export class DataPlaneModule {}
