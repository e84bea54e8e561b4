import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { LogEndpoint } from '@sift/api-contracts';
import type { Request, Response } from 'express';
import { ApiError, KeylessLimitError } from '../http/api-error';
import { CallerAuthentication } from '../caller/caller-authentication.service';
import { rateLimitRefusal } from '../caller/rate-limit-refusal';
import { describeError } from '../http/api-exception.filter';
import type { RequestContext } from '../caller/request-context';
import { failureCause, failureUsage, RequestOutcome } from '../request-log/request-outcome';
import { ExtractService } from '../extract/extract.service';
import { RequestRecorder } from '../request-log/request-recorder.service';
import { SearchService } from '../search/search.service';
import { EXTRACT_DTO, extractToolArguments, SEARCH_DTO, searchToolArguments, toDto, ToolArgumentError } from './mcp-tools';

interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  isError?: boolean;
}

/**
 * The remote tool server: MCP over streamable HTTP, stateless (every POST carries its own JSON-RPC exchange), with
 * the search and extract tools. Each tool call is its own billed request (own request id) with its own request
 * log row, authenticated by the guard that already ran for this request and rate-limited per tool call: a JSON-RPC
 * batch of a hundred calls spends a hundred units of the caller's budget, keyless or keyed, exactly as a hundred
 * POSTs to /search would.
 */
@Injectable()
export class McpService {
  constructor(
    private readonly searchService: SearchService,
    private readonly extractService: ExtractService,
    private readonly recorder: RequestRecorder,
    private readonly authentication: CallerAuthentication,
  ) {}

  async handle(context: RequestContext, request: Request, response: Response): Promise<void> {
    const budget = new ToolCallBudget(this.authentication, context);
    const server = new McpServer({ name: 'sift', version: '1.0.0' });
    server.registerTool(
      'search',
      { title: 'Web search', description: 'Search the web (Sift local index and configured engines); returns ranked results with content chunks.', inputSchema: searchToolArguments },
      (input) => this.run(context, budget, 'search', async (callContext) => this.searchService.search(callContext, await toDto(SEARCH_DTO, input), new Set(Object.keys(input)))),
    );
    server.registerTool(
      'extract',
      { title: 'Extract pages', description: 'Extract the cleaned content of up to 20 URLs as markdown or text.', inputSchema: extractToolArguments },
      (input) => this.run(context, budget, 'extract', async (callContext) => this.extractService.extract(callContext, await toDto(EXTRACT_DTO, input))),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, request.body);
  }

  private async run(
    context: RequestContext,
    budget: ToolCallBudget,
    endpoint: LogEndpoint,
    work: (callContext: RequestContext) => Promise<RequestOutcome<unknown>>,
  ): Promise<ToolResult> {
    // A fresh request id per tool call keeps the ledger's (request id, kind) key unique per call.
    const callContext: RequestContext = { ...context, requestId: randomUUID(), startedAt: process.hrtime.bigint() };
    try {
      await budget.spend();
      const outcome = await work(callContext);
      this.recorder.record(callContext, endpoint, 200, outcome.usage);
      return { content: [{ type: 'text', text: JSON.stringify(outcome.response) }] };
    } catch (failure) {
      const error = failureCause(failure);
      // Logged with the status the same call over HTTP would have answered.
      const status = error instanceof ToolArgumentError ? 400 : describeError(error, `/${endpoint}`).status;
      this.recorder.record(callContext, endpoint, status, failureUsage(failure));
      if (error instanceof ToolArgumentError) return toolError(`Invalid arguments: ${error.message}`);
      if (error instanceof ApiError) {
        const body = error.getResponse() as { detail?: { error?: string } };
        return toolError(`${error.getStatus()}: ${body.detail?.error ?? error.message}`);
      }
      if (error instanceof KeylessLimitError) {
        const body = error.getResponse() as { error: { message: string } };
        return toolError(`${error.getStatus()}: ${body.error.message}`);
      }
      throw error;
    }
  }
}

function toolError(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * The rate-limit units of one MCP POST. The guard already counted the POST itself (it also pays for initialize,
 * tools/list and notifications); that unit covers the first tool call, and every further call, in a batch or not,
 * spends one more unit of the same budget. A call past the budget is refused alone with the 429 message, so the
 * calls before it keep their results.
 */
class ToolCallBudget {
  private prepaidCalls = 1;

  constructor(
    private readonly authentication: CallerAuthentication,
    private readonly context: RequestContext,
  ) {}

  async spend(): Promise<void> {
    // Batch entries run concurrently; this check-and-decrement has no await in between, so one call takes the unit.
    if (this.prepaidCalls > 0) {
      this.prepaidCalls -= 1;
      return;
    }
    const caller = this.context.caller;
    if (!caller) throw new Error('MCP tool call without an authenticated caller');
    // Search and extract spend the default per-key budget over HTTP, so their tool calls do too.
    const verdict = await this.authentication.consumeCallerBudget(caller, 'default');
    if (!verdict.allowed) throw rateLimitRefusal(caller, verdict.retryAfterSeconds);
  }
}
