import { Injectable, Logger } from '@nestjs/common';
import type { LogEndpoint } from '@sift/api-contracts';
import { ProjectRepository } from '@sift/persistence';
import { type Caller, type RequestContext, responseTimeSeconds } from '../caller/request-context';
import type { RequestUsage } from './request-outcome';
import { RequestLogWriter } from './request-log-writer.service';

/**
 * Writes the request log row of one finished data-plane request (an HTTP route or an MCP tool call), success or
 * error, from what the request did. Keyless requests have no account and are not logged; requests paid over x402
 * are logged in the operator's payments account (see LogOwner). Logging never fails a request: a write that fails
 * is only reported.
 */
@Injectable()
export class RequestRecorder {
  private readonly logger = new Logger('request-log');

  constructor(
    private readonly logs: RequestLogWriter,
    private readonly projects: ProjectRepository,
  ) {}

  record(context: RequestContext, endpoint: LogEndpoint, statusCode: number, usage: RequestUsage): void {
    const owner = logOwnerOf(context.caller);
    if (!owner) return;
    const responseTime = responseTimeSeconds(context);
    void this.write(owner, context, { endpoint, statusCode, responseTime, usage }).catch((error: Error) =>
      this.logger.warn(`could not record request ${context.requestId}: ${error.message}`),
    );
  }

  private async write(
    owner: LogOwner,
    context: RequestContext,
    finished: { endpoint: LogEndpoint; statusCode: number; responseTime: number; usage: RequestUsage },
  ): Promise<void> {
    const finishedAt = new Date();
    // Without a project header the row is buffered before the first await, so a /logs read right after sees it.
    const project = context.projectExternalId ? await this.projects.findOrCreate(owner.accountId, context.projectExternalId) : null;
    this.logs.add(owner.accountId, {
      requestId: context.requestId,
      apiKeyId: owner.apiKeyId,
      projectId: project?.id ?? null,
      endpoint: finished.endpoint,
      depth: finished.usage.depth,
      statusCode: finished.statusCode,
      responseTime: finished.responseTime,
      credits: finished.usage.credits,
      sessionId: context.sessionId ?? null,
      humanIdHash: context.humanIdHash ?? null,
      detail: finished.usage.detail ?? undefined,
      createdAt: finishedAt,
    });
  }
}

/** The account and key a request's row belongs to. */
interface LogOwner {
  accountId: string;
  apiKeyId: string | null;
}

/** A keyed request is its key's; a paid one (no key, no account) the payments account's, the payer in its detail. */
function logOwnerOf(caller: Caller | undefined): LogOwner | null {
  if (!caller) return null;
  if (!caller.keyless) return { accountId: caller.accountId, apiKeyId: caller.apiKeyId };
  return caller.payment ? { accountId: caller.payment.logAccountId, apiKeyId: null } : null;
}
