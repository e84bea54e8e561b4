import { ApiProperty } from '@nestjs/swagger';
import { ADMIN_JOB_KINDS, ADMIN_JOB_STATES } from './admin.constants';

export class AdminJobDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ enum: ADMIN_JOB_KINDS })
  kind!: string;

  @ApiProperty({ enum: ADMIN_JOB_STATES, description: 'queued (waiting for the job before it), running, succeeded or failed.' })
  state!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'What the job was asked to do.' })
  parameters!: Record<string, unknown>;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number' },
    nullable: true,
    description: 'Counts so far, written every few seconds: import {lines, imported, skipped}; rechunk {chunked}; resegment {read, indexed}; embed {embedded, pending}; crawl {successful_pages, failed_pages} at its end.',
    example: { lines: 1500, imported: 1490, skipped: 10 },
  })
  progress!: Record<string, number> | null;

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'The report of a job that succeeded.', example: { lines: 3000, imported: 2980, skipped: 20, seconds: 41.2 } })
  result!: Record<string, unknown> | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why a failed job failed.' })
  error!: string | null;

  @ApiProperty({ example: 'admin-token:3f9a0c1b2d4e', description: 'Who started it (the operator credential\'s fingerprint).' })
  actor!: string;

  @ApiProperty({ description: 'ISO 8601 date-time.' })
  created_at!: string;

  @ApiProperty({ type: String, nullable: true })
  started_at!: string | null;

  @ApiProperty({ type: String, nullable: true })
  finished_at!: string | null;
}

export class AdminJobsResponseDto {
  @ApiProperty({ type: [AdminJobDto] })
  jobs!: AdminJobDto[];
}
