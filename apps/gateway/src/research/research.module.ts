import { Module } from '@nestjs/common';
import { MeteringService } from '../billing/metering.service';
import { ResearchController } from './research.controller';
import { RESEARCH_PROVIDERS } from './research.providers';
import { ResearchService } from './research.service';
import { ResearchStream } from './research-stream';

/** POST /research and GET /research/{request_id}: tasks stored in Postgres, worked on by the research worker. */
@Module({
  controllers: [ResearchController],
  providers: [...RESEARCH_PROVIDERS, MeteringService, ResearchService, ResearchStream],
  // The MCP research tool starts and polls tasks through the same service.
  exports: [ResearchService],
})
export class ResearchModule {}
