import { Body, Controller, Post, Req, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes } from '@nestjs/swagger';
import { tmpdir } from 'node:os';
import type { Request } from 'express';
import { AdminCrawlRequestDto, AdminEmbedRequestDto, AdminImportUploadDto, AdminJobDto } from '@sift/api-contracts';
import { AdminEndpoint } from './admin-endpoint.decorator';
import { AdminIndexJobs } from './admin-index-jobs.service';
import { jobView } from './admin-views';
import { IMPORT_UPLOAD_MAX_BYTES, type MulterDiskFile, RAW_IMPORT_TYPES, receiveImportUpload } from './import-upload';
import { OperatorOnly, operatorOf } from './operator.guard';

const JOB_STARTED = 'Poll GET /admin/jobs/{id} for its state and counts.';

@Controller('admin/index')
@OperatorOnly()
export class AdminIndexController {
  constructor(private readonly jobs: AdminIndexJobs) {}

  @Post('import')
  @AdminEndpoint({
    operationId: 'adminImportDocuments',
    summary: 'Import a JSONL file of documents into the local index (a job)',
    description:
      `One {url, title, text | html, published_date?, language?} per line, as \`npm run admin -- index import\` reads. Upload it as the ` +
      `multipart field \`file\`, or send it as the body with Content-Type ${RAW_IMPORT_TYPES.join(', ')}; at most ${IMPORT_UPLOAD_MAX_BYTES / 1024 / 1024} MB. ` +
      `Malformed lines are skipped and counted. ${JOB_STARTED}`,
    response: AdminJobDto,
    status: 202,
    errors: { 413: 'The file is too large for an upload; import it with the command line' },
  })
  // Swagger UI offers a file picker for the multipart form; the raw body (RAW_IMPORT_TYPES) is in the description.
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: AdminImportUploadDto })
  // Multer writes the file part to disk as it arrives (nothing else of the form is kept); a raw body is streamed below.
  @UseInterceptors(FileInterceptor('file', { dest: tmpdir(), limits: { fileSize: IMPORT_UPLOAD_MAX_BYTES, files: 1, fields: 0 } }))
  async importDocuments(@Req() request: Request, @UploadedFile() file: MulterDiskFile | undefined): Promise<AdminJobDto> {
    const upload = await receiveImportUpload(request, file);
    return jobView(await this.jobs.startImport(operatorOf(request), upload));
  }

  @Post('crawl')
  @AdminEndpoint({
    operationId: 'adminCrawlSite',
    summary: 'Crawl a site into the local index through the crawler worker (a job)',
    description: `The pages are stored as the operator's, searchable by every account; not billed. ${JOB_STARTED}`,
    response: AdminJobDto,
    status: 202,
    body: { type: AdminCrawlRequestDto, example: { url: 'https://docs.example.com/', max_depth: 2, limit: 100 } },
  })
  async crawlSite(@Req() request: Request, @Body() body: AdminCrawlRequestDto): Promise<AdminJobDto> {
    const job = await this.jobs.startCrawl(operatorOf(request), {
      url: body.url,
      maxDepth: body.max_depth,
      maxBreadth: body.max_breadth,
      limit: body.limit,
      timeoutSeconds: body.timeout,
    });
    return jobView(job);
  }

  @Post('rechunk')
  @AdminEndpoint({
    operationId: 'adminRechunkDocuments',
    summary: 'Cut documents stored before search chunks existed into chunks (a job; safe to run again)',
    description: JOB_STARTED,
    response: AdminJobDto,
    status: 202,
  })
  async rechunk(@Req() request: Request): Promise<AdminJobDto> {
    return jobView(await this.jobs.startRechunk(operatorOf(request)));
  }

  @Post('resegment')
  @AdminEndpoint({
    operationId: 'adminResegmentDocuments',
    summary: 'Index again the documents stored before word segmentation, headings, dotted names, links or title names were indexed (a job; safe to run again)',
    description: JOB_STARTED,
    response: AdminJobDto,
    status: 202,
  })
  async resegment(@Req() request: Request): Promise<AdminJobDto> {
    return jobView(await this.jobs.startResegment(operatorOf(request)));
  }

  @Post('embed')
  @AdminEndpoint({
    operationId: 'adminEmbedChunks',
    summary: 'Give every stored chunk a vector of EMBEDDINGS_MODEL (a job; safe to run again)',
    description: `Fails at once when EMBEDDINGS_BASE_URL is not set on the gateway. ${JOB_STARTED}`,
    response: AdminJobDto,
    status: 202,
    body: { type: AdminEmbedRequestDto, example: { batch_size: 32 } },
  })
  async embed(@Req() request: Request, @Body() body: AdminEmbedRequestDto): Promise<AdminJobDto> {
    return jobView(await this.jobs.startEmbed(operatorOf(request), body.batch_size));
  }
}
