import { Injectable } from '@nestjs/common';
import { LOG_ENDPOINTS, LogEntryDto, LogsRequestDto, LogsResponseDto } from '@sift/api-contracts';
import { ApiKeyRepository, ProjectRepository, RequestLogRepository } from '@sift/persistence';
import { ApiError } from '../http/api-error';
import { keyedCaller, RequestContext, responseTimeSeconds } from '../caller/request-context';
import { RequestLogWriter } from '../request-log/request-log-writer.service';

@Injectable()
export class LogsService {
  constructor(
    private readonly logs: RequestLogRepository,
    private readonly apiKeys: ApiKeyRepository,
    private readonly projects: ProjectRepository,
    private readonly pendingLogs: RequestLogWriter,
  ) {}

  async list(context: RequestContext, query: LogsRequestDto): Promise<LogsResponseDto> {
    const caller = keyedCaller(context);
    if (!caller.planPaid) throw new ApiError(403, 'Logs are available on paid plans only. Upgrade your plan to read request logs.');
    const unknown = (query.endpoints ?? []).filter((endpoint) => !(LOG_ENDPOINTS as readonly string[]).includes(endpoint));
    if (unknown.length) {
      throw new ApiError(400, `Invalid endpoints filter: ${unknown.join(', ')}. Valid endpoints are: ${LOG_ENDPOINTS.join(', ')}.`);
    }
    const since = query.start_date ? parseDate(query.start_date, 'start') : undefined;
    const until = query.end_date ? parseDate(query.end_date, 'end') : undefined;
    if (since && until && since > until) throw new ApiError(400, 'start_date must not be after end_date.');
    // Request logs are written in batches: store the pending ones so the caller sees every finished request.
    await this.pendingLogs.flush();
    const projectExternalId = query.project_id ?? undefined;
    const project = projectExternalId ? await this.projects.findByExternalId(caller.accountId, projectExternalId) : undefined;
    const rows =
      projectExternalId && !project
        ? []
        : await this.logs.list(caller.accountId, {
            apiKeyId: query.filter_by_api_key ? caller.apiKeyId : undefined,
            endpoints: query.endpoints,
            limit: query.limit,
            since,
            until,
            projectId: project?.id,
          });
    const lastFour = new Map((await this.apiKeys.list(caller.accountId)).map((key) => [key.id, key.lastFour]));
    const logs = rows.flatMap((row): LogEntryDto[] => {
      // Only the request recorder writes these rows, always with one of the logged endpoints.
      const endpoint = LOG_ENDPOINTS.find((name) => name === row.endpoint);
      if (!endpoint) return [];
      return [
        {
          timestamp: row.createdAt.toISOString(),
          endpoint,
          depth: row.depth,
          response_time: row.responseTime,
          credits: row.credits,
          api_key: row.apiKeyId ? `****${lastFour.get(row.apiKeyId) ?? ''}` : null,
          request_id: row.requestId,
        },
      ];
    });
    return { logs, count: logs.length, response_time: responseTimeSeconds(context), request_id: context.requestId };
  }
}

/** A calendar date covers its whole day: start_date from 00:00, end_date through 23:59:59.999 (UTC). */
function parseDate(value: string, edge: 'start' | 'end'): Date {
  const dayOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const date = new Date(dayOnly ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(date.getTime())) throw new ApiError(400, `Invalid ${edge}_date: ${value}.`);
  if (dayOnly && edge === 'end') date.setUTCDate(date.getUTCDate() + 1);
  return dayOnly && edge === 'end' ? new Date(date.getTime() - 1) : date;
}
