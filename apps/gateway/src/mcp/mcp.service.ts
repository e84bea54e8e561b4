import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, CallToolResult, ErrorCode, ListToolsRequestSchema, McpError, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CrawlRequestDto, ExtractRequestDto, FeedbackRequestDto, MapRequestDto, SearchRequestDto } from '@sift/api-contracts';
import type { Request, Response } from 'express';
import { CallerAuthentication } from '../caller/caller-authentication.service';
import { rateLimitRefusal } from '../caller/rate-limit-refusal';
import type { Caller, RequestContext } from '../caller/request-context';
import { CrawlService } from '../crawl/crawl.service';
import { ExtractService } from '../extract/extract.service';
import { FeedbackService } from '../feedback/feedback.service';
import { KEYLESS_NOT_ALLOWED_MESSAGE } from '../http/api-error';
import { describeError } from '../http/api-exception.filter';
import { FEEDBACK_MAX_BODY_BYTES } from '../http/body-limits';
import { createRequestValidationPipe } from '../http/request-validation.pipe';
import { MapService } from '../map/map.service';
import { failureUsage, NO_USAGE, RequestOutcome } from '../request-log/request-outcome';
import { RequestRecorder } from '../request-log/request-recorder.service';
import { SearchService } from '../search/search.service';
import { ToolDefinition, ToolName, TOOLS } from './mcp-tools';
import { toolErrorOf } from './tool-error';
import { readDtoSchemas } from './tool-input-schemas';

/**
 * The remote tool server: MCP over streamable HTTP, stateless (every POST carries its own JSON-RPC exchange), with
 * Tavily's tools. Each tool call is its REST twin's request: the same validation, the same service (billed through
 * it), its own request id and request log row, and one unit of the caller's rate limit in the twin's budget, so a
 * JSON-RPC batch of a hundred calls spends what a hundred POSTs would. A refusal of any kind, the keyless budget
 * included, is that call's tool error carrying the REST error's message, never an HTTP error for the whole message.
 */
@Injectable()
export class McpService implements OnModuleInit {
  private readonly logger = new Logger('mcp');
  private readonly validation = createRequestValidationPipe();
  private tools: Tool[] = [];

  constructor(
    private readonly searchService: SearchService,
    private readonly extractService: ExtractService,
    private readonly crawlService: CrawlService,
    private readonly mapService: MapService,
    private readonly feedbackService: FeedbackService,
    private readonly recorder: RequestRecorder,
    private readonly authentication: CallerAuthentication,
  ) {}

  async onModuleInit(): Promise<void> {
    const definitions = Object.values(TOOLS);
    const schemas = await readDtoSchemas(definitions.map((tool) => tool.body));
    this.tools = definitions.map((tool) => {
      const schema = schemas.get(tool.body) as Tool['inputSchema'];
      const required = [...new Set([...(schema.required ?? []), ...(tool.required ?? [])])];
      return { name: tool.name, title: tool.title, description: tool.description, inputSchema: { ...schema, required } };
    });
  }

  async handle(context: RequestContext, request: Request, response: Response): Promise<void> {
    const server = new Server({ name: 'sift', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.tools }));
    server.setRequestHandler(CallToolRequestSchema, (call) => this.callTool(context, call.params.name, call.params.arguments ?? {}));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, request.body);
  }

  private async callTool(context: RequestContext, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    if (!Object.hasOwn(TOOLS, name)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const tool = TOOLS[name as ToolName];
    const caller = context.caller;
    if (!caller) throw new Error('MCP tool call without an authenticated caller');
    // Refused before any budget is spent, as the guard refuses a keyless POST /crawl.
    if (caller.keyless && !tool.keyless) return toolErrorOf(401, { detail: { error: KEYLESS_NOT_ALLOWED_MESSAGE } });
    // A fresh request id per tool call keeps the ledger's (request id, kind) key unique per call.
    const callContext: RequestContext = { ...context, requestId: randomUUID(), startedAt: process.hrtime.bigint() };
    try {
      await this.spendBudget(caller, tool);
      const outcome = await this.run(tool, callContext, args);
      if (tool.logEndpoint) this.recorder.record(callContext, tool.logEndpoint, 200, outcome.usage);
      return { content: [{ type: 'text', text: JSON.stringify(outcome.response) }], structuredContent: outcome.response as Record<string, unknown> };
    } catch (failure) {
      // The status and body the same request over HTTP is answered with, and logged with.
      const { status, body } = describeError(failure, tool.path);
      if (status >= 500 && status !== 503) this.logger.error(`${tool.name}: ${(failure as Error)?.stack ?? failure}`);
      if (tool.logEndpoint) this.recorder.record(callContext, tool.logEndpoint, status, failureUsage(failure));
      return toolErrorOf(status, body);
    }
  }

  private async spendBudget(caller: Caller, tool: ToolDefinition): Promise<void> {
    const verdict = await this.authentication.consumeCallerBudget(caller, tool.rateLimitCategory);
    if (!verdict.allowed) throw rateLimitRefusal(caller, verdict.retryAfterSeconds);
  }

  private async run(tool: ToolDefinition, context: RequestContext, args: Record<string, unknown>): Promise<RequestOutcome<object>> {
    if (tool.name === 'tavily_feedback' && Buffer.byteLength(JSON.stringify(args)) > FEEDBACK_MAX_BODY_BYTES) {
      // What the body parser of POST /feedback raises for the same body.
      throw Object.assign(new Error('request entity too large'), { type: 'entity.too.large' });
    }
    const body: unknown = await this.validation.transform(args, { type: 'body', metatype: tool.body });
    switch (tool.name) {
      case 'tavily_search':
        return this.searchService.search(context, body as SearchRequestDto, explicitFieldsOf(args));
      case 'tavily_extract':
        return this.extractService.extract(context, body as ExtractRequestDto);
      case 'tavily_crawl':
        return this.crawlService.crawl(context, body as CrawlRequestDto);
      case 'tavily_map':
        return this.mapService.map(context, body as MapRequestDto);
      case 'tavily_feedback':
        // POST /feedback is free and not in the request log; its tool call is neither.
        return { response: await this.feedbackService.submit(context, body as FeedbackRequestDto), usage: NO_USAGE };
    }
  }
}

/** The arguments the caller actually gave (non-null): auto_parameters lets explicit values win over its choices. */
function explicitFieldsOf(args: Record<string, unknown>): ReadonlySet<string> {
  return new Set(Object.keys(args).filter((name) => args[name] !== null && args[name] !== undefined));
}
