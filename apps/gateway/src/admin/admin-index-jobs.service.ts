import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { rm } from 'node:fs/promises';
import { type AdminActor, type AdminJobRecord, AdminJobRunner, type AdminServices, type CrawlRequest } from '@sift/admin';
import type { ConfiguredModels } from '@sift/models';
import { JobQueue } from '@sift/queue';
import { MODELS } from '../pages/pages.module';
import { ADMIN_SERVICES } from './admin-services.provider';
import type { ImportUpload } from './import-upload';

/** Documents an import writes at once: each holds one connection of the pool the tenant API uses too. */
const IMPORT_CONCURRENCY = 2;

/**
 * The admin API's index operations, each started as a job of the AdminJobRunner: the request answers with the job
 * at once, the job calls the same @sift/admin service the command line calls, and GET /admin/jobs/{id} follows it.
 */
@Injectable()
export class AdminIndexJobs implements BeforeApplicationShutdown {
  constructor(
    private readonly runner: AdminJobRunner,
    @Inject(ADMIN_SERVICES) private readonly admin: AdminServices,
    private readonly queue: JobQueue,
    @Inject(MODELS) private readonly models: ConfiguredModels,
  ) {}

  startImport(actor: AdminActor, upload: ImportUpload): Promise<AdminJobRecord> {
    const parameters = { file: upload.name, bytes: upload.bytes };
    return this.runner.submit(
      actor,
      'index.import',
      parameters,
      (jobId, onProgress) => this.admin.index.importFile(actor, upload.path, { concurrency: IMPORT_CONCURRENCY, parameters }, { jobId, onProgress }),
      () => rm(upload.path, { force: true }),
    );
  }

  startCrawl(actor: AdminActor, request: CrawlRequest): Promise<AdminJobRecord> {
    const parameters = { url: request.url, max_depth: request.maxDepth, max_breadth: request.maxBreadth, limit: request.limit, timeout: request.timeoutSeconds };
    return this.runner.submit(actor, 'index.crawl', parameters, (jobId, onProgress) => this.admin.index.crawl(actor, this.queue, request, { jobId, onProgress }));
  }

  startRechunk(actor: AdminActor): Promise<AdminJobRecord> {
    return this.runner.submit(actor, 'index.rechunk', {}, (jobId, onProgress) => this.admin.index.rechunk(actor, { jobId, onProgress }));
  }

  startResegment(actor: AdminActor): Promise<AdminJobRecord> {
    return this.runner.submit(actor, 'index.resegment', {}, (jobId, onProgress) => this.admin.index.resegment(actor, { jobId, onProgress }));
  }

  startEmbed(actor: AdminActor, batchSize: number): Promise<AdminJobRecord> {
    return this.runner.submit(actor, 'index.embed', { batch_size: batchSize }, (jobId, onProgress) =>
      this.admin.index.embed(actor, this.models.embeddings, { batchSize }, { jobId, onProgress }),
    );
  }

  find(id: string): Promise<AdminJobRecord | null> {
    return this.runner.find(id);
  }

  list(limit: number): Promise<AdminJobRecord[]> {
    return this.runner.list(limit);
  }

  // Before the shutdown hooks that close the database: this process's unfinished jobs are failed while it still can.
  async beforeApplicationShutdown(): Promise<void> {
    await this.runner.stop().catch(() => undefined);
  }
}
