import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { NullAsDefault } from '../common/null-as-default.transform';
import { ADMIN_LIMITS } from './admin.constants';

const CRAWL = ADMIN_LIMITS.crawl;

export class AdminCrawlRequestDto {
  @ApiProperty({ example: 'https://docs.example.com/', description: 'Where the crawl starts; without a scheme, https:// is assumed.' })
  @IsString()
  @MinLength(1)
  @MaxLength(8192)
  url!: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: CRAWL.maxDepth.max, default: CRAWL.maxDepth.default, description: 'Link hops from the start page.' })
  @NullAsDefault(CRAWL.maxDepth.default)
  @IsInt()
  @Min(1)
  @Max(CRAWL.maxDepth.max)
  max_depth: number = CRAWL.maxDepth.default;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: CRAWL.maxBreadth.max, default: CRAWL.maxBreadth.default, description: 'Links followed per page.' })
  @NullAsDefault(CRAWL.maxBreadth.default)
  @IsInt()
  @Min(1)
  @Max(CRAWL.maxBreadth.max)
  max_breadth: number = CRAWL.maxBreadth.default;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: CRAWL.limit.max, default: CRAWL.limit.default, description: 'Pages to crawl at most.' })
  @NullAsDefault(CRAWL.limit.default)
  @IsInt()
  @Min(1)
  @Max(CRAWL.limit.max)
  limit: number = CRAWL.limit.default;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: CRAWL.timeoutSeconds.max, default: CRAWL.timeoutSeconds.default, description: 'How long the crawl may run, in seconds.' })
  @NullAsDefault(CRAWL.timeoutSeconds.default)
  @IsInt()
  @Min(1)
  @Max(CRAWL.timeoutSeconds.max)
  timeout: number = CRAWL.timeoutSeconds.default;
}

export class AdminEmbedRequestDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: ADMIN_LIMITS.embedBatchSize.max, default: ADMIN_LIMITS.embedBatchSize.default, description: 'Chunks per call to the model.' })
  @NullAsDefault(ADMIN_LIMITS.embedBatchSize.default)
  @IsInt()
  @Min(1)
  @Max(ADMIN_LIMITS.embedBatchSize.max)
  batch_size: number = ADMIN_LIMITS.embedBatchSize.default;
}

/** The multipart form of POST /admin/index/import (documentation only: the file is read off the request as it streams). */
export class AdminImportUploadDto {
  @ApiProperty({ type: 'string', format: 'binary', description: 'A JSONL file: one {url, title, text | html, published_date?, language?} per line.' })
  file!: unknown;
}
