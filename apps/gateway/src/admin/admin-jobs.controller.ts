import { Controller, Get, Param, Query } from '@nestjs/common';
import { ADMIN_LIMITS, AdminJobDto, AdminJobsResponseDto, AdminListQueryDto } from '@sift/api-contracts';
import { ApiError } from '../http/api-error';
import { AdminEndpoint } from './admin-endpoint.decorator';
import { AdminIndexJobs } from './admin-index-jobs.service';
import { jobView } from './admin-views';
import { OperatorOnly } from './operator.guard';

const NO_JOB = 'No admin job with that id';

@Controller('admin/jobs')
@OperatorOnly()
export class AdminJobsController {
  constructor(private readonly jobs: AdminIndexJobs) {}

  @Get()
  @AdminEndpoint({ operationId: 'adminListJobs', summary: 'List the admin jobs, newest first', response: AdminJobsResponseDto })
  async listJobs(@Query() query: AdminListQueryDto): Promise<AdminJobsResponseDto> {
    return { jobs: (await this.jobs.list(query.limit ?? ADMIN_LIMITS.list.default)).map(jobView) };
  }

  @Get(':id')
  @AdminEndpoint({
    operationId: 'adminGetJob',
    summary: "An admin job's state, counts so far, and its result or error",
    description: 'A job whose gateway stopped before it ended is reported failed within a minute.',
    response: AdminJobDto,
    errors: { 404: NO_JOB },
  })
  async getJob(@Param('id') id: string): Promise<AdminJobDto> {
    const job = await this.jobs.find(id);
    if (!job) throw new ApiError(404, `${NO_JOB}.`);
    return jobView(job);
  }
}
