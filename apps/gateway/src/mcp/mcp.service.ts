import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnModuleInit, Type } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, CallToolResult, ErrorCode, ListToolsRequestSchema, McpError, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CrawlRequestDto, ExtractRequestDto, FeedbackRequestDto, MapRequestDto, ResearchRequestDto, SearchRequestDto } from '@sift/api-contracts';
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
import { withInvalidModelMessage } from '../research/invalid-model.filter';
import { ResearchService } from '../research/research.service';
import { SearchService } from '../search/search.service';
import { RESUMED_RESEARCH, TOOL_DEFAULT_MAX_TOKENS, ToolDefinition, ToolName, TOOLS } from './mcp-tools';
import { researchResultOf } from './research-result';
import { GetResearchToolArgumentsDto } from './get-research-tool-arguments.dto';
import { ResearchToolOptionsDto } from './research-tool-options.dto';
import { waitForResearch } from './research-wait';
import { toolErrorOf } from './tool-error';
import { JsonSchema, readDtoSchemas } from './tool-input-schemas';

/**
 * The remote tool server: MCP over streamable HTTP, stateless (every POST carries its own JSON-RPC exchange), with
 * Tavily's tools. Each tool call is its REST twin's request: the same validation, the same service (billed through
 * it), its own request id and request log row, and one unit of the caller's rate limit in the twin's budget, so a
 * JSON-RPC batch of a hundred calls spends what a hundred POSTs would. A refusal of any kind, the keyless budget
 * included, is that call's tool error carrying the REST error's message, never an HTTP error for the whole message.
 * The research tool starts its task as POST /research does and then waits for it (a tool call cannot stream).
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
    private readonly researchService: ResearchService,
    private readonly recorder: RequestRecorder,
    private readonly authentication: CallerAuthentication,
  ) {}

  async onModuleInit(): Promise<void> {
    const definitions = Object.values(TOOLS);
    const schemas = await readDtoSchemas(definitions.flatMap((tool) => (tool.options ? [tool.body, tool.options] : [tool.body])));
    this.tools = definitions.map((tool) => ({ name: tool.name, title: tool.title, description: tool.description, inputSchema: inputSchemaOf(tool, schemas) }));
  }

  async handle(context: RequestContext, request: Request, response: Response): Promise<void> {
    const server = new Server({ name: 'sift', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.tools }));
    // The SDK aborts a handler's signal when the server closes, which it does when the HTTP response closes.
    server.setRequestHandler(CallToolRequestSchema, (call, extra) => this.callTool(context, call.params.name, call.params.arguments ?? {}, extra.signal));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, request.body);
  }

  private async callTool(context: RequestContext, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    if (!Object.hasOwn(TOOLS, name)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const tool = TOOLS[name as ToolName];
    const caller = context.caller;
    if (!caller) throw new Error('MCP tool call without an authenticated caller');
    // Refused before any budget is spent, as the guard refuses a keyless POST /crawl.
    if (caller.keyless && !tool.keyless) return toolErrorOf(401, { detail: { error: KEYLESS_NOT_ALLOWED_MESSAGE } });
    // A fresh request id per tool call keeps the ledger's (request id, kind) key unique per call.
    const callContext: RequestContext = { ...context, requestId: randomUUID(), startedAt: process.hrtime.bigint() };
    if (tool.name === 'tavily_research' || tool.name === 'tavily_get_research') return this.research(tool, caller, callContext, args, signal);
    try {
      await this.spendBudget(caller, tool);
      const outcome = await this.runRecorded(tool, callContext, args);
      return { content: [{ type: 'text', text: JSON.stringify(outcome.response) }], structuredContent: outcome.response as Record<string, unknown> };
    } catch (failure) {
      return this.refusal(tool, callContext, failure);
    }
  }

  /**
   * Starts a research task as POST /research does (its budget, its request log row), or takes up an earlier one by
   * its request_id as GET /research/{request_id} does (tavily_get_research, or tavily_research given a request_id),
   * then waits for it: a timeout or a client gone away leaves the task running in the research worker.
   */
  private async research(tool: ToolDefinition, caller: Caller, context: RequestContext, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const resumes = tool.name === 'tavily_get_research' || (args.request_id !== undefined && args.request_id !== null);
    const twin = resumes ? RESUMED_RESEARCH : TOOLS.tavily_research;
    let task: { requestId: string; timeoutSeconds: number; maxTokens: number };
    try {
      await this.spendBudget(caller, twin);
      // Validated before the task starts: a bad timeout must not leave a task behind.
      const metatype = tool.name === 'tavily_get_research' ? GetResearchToolArgumentsDto : ResearchToolOptionsDto;
      const options = (await this.validation.transform(args, { type: 'body', metatype })) as ResearchToolOptionsDto;
      const requestId = options.request_id ?? ((await this.runRecorded(TOOLS.tavily_research, context, args)).response as { request_id: string }).request_id;
      task = { requestId, timeoutSeconds: options.timeout, maxTokens: options.max_tokens ?? tool.defaultMaxTokens ?? TOOL_DEFAULT_MAX_TOKENS };
    } catch (failure) {
      return this.refusal(twin, context, failure);
    }
    try {
      const poll = await waitForResearch(
        () => this.researchService.poll(context, task.requestId, false, task.maxTokens),
        (answer) => answer.status === 200,
        { timeoutMs: task.timeoutSeconds * 1_000, signal },
      );
      return researchResultOf(poll.body);
    } catch (failure) {
      return this.refusal(RESUMED_RESEARCH, context, failure);
    }
  }

  /** The tool's REST twin run: the service call and its request log row. */
  private async runRecorded(tool: ToolDefinition, context: RequestContext, args: Record<string, unknown>): Promise<RequestOutcome<object>> {
    const outcome = await this.run(tool, context, args);
    if (tool.logEndpoint) this.recorder.record(context, tool.logEndpoint, 200, outcome.usage);
    return outcome;
  }

  /** The status and body the same request over HTTP is answered with, and logged with. */
  private refusal(tool: ToolDefinition, context: RequestContext, failure: unknown): CallToolResult {
    const { status, body } = describeError(failure, tool.path);
    if (status >= 500 && status !== 503) this.logger.error(`${tool.name}: ${(failure as Error)?.stack ?? failure}`);
    if (tool.logEndpoint) this.recorder.record(context, tool.logEndpoint, status, failureUsage(failure));
    return toolErrorOf(status, body);
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
    const body: unknown = await this.validation.transform(args, { type: 'body', metatype: tool.body }).catch((error: unknown) => {
      // POST /research's own sentence for an unknown model.
      throw tool.name === 'tavily_research' ? withInvalidModelMessage(error, args) : error;
    });
    if (tool.defaultMaxTokens !== undefined && !tool.defaultBoundsAnswer) (body as { max_tokens?: number }).max_tokens ??= tool.defaultMaxTokens;
    switch (tool.name) {
      case 'tavily_search':
        return this.searchService.search(context, body as SearchRequestDto, explicitFieldsOf(args));
      case 'tavily_extract':
        return this.extractService.extract(context, body as ExtractRequestDto);
      case 'tavily_crawl':
        return this.crawlService.crawl(context, body as CrawlRequestDto);
      case 'tavily_map':
        return this.mapService.map(context, body as MapRequestDto);
      case 'tavily_research':
        return this.researchService.start(context, body as ResearchRequestDto);
      case 'tavily_get_research':
        throw new Error('tavily_get_research starts nothing: research() waits for the task');
      case 'tavily_feedback':
        // POST /feedback is free and not in the request log; its tool call is neither.
        return { response: await this.feedbackService.submit(context, body as FeedbackRequestDto), usage: NO_USAGE };
    }
  }
}

/** The body's schema as the tool takes it: omitted fields out, the tool's own options in, undocumented fields described. */
function inputSchemaOf(tool: ToolDefinition, schemas: Map<Type<object>, JsonSchema>): Tool['inputSchema'] {
  const body = schemas.get(tool.body) as Tool['inputSchema'];
  const options = tool.options && (schemas.get(tool.options) as Tool['inputSchema']);
  const properties = Object.entries({ ...body.properties, ...options?.properties })
    .filter(([name]) => !tool.omitted?.includes(name))
    .map(([name, property]) => {
      const description = tool.descriptions?.[name];
      const described = description && !(property as JsonSchema).description ? { ...(property as JsonSchema), description } : (property as JsonSchema);
      return [name, name === 'max_tokens' && tool.defaultMaxTokens !== undefined ? { ...described, default: tool.defaultMaxTokens } : described];
    });
  return { ...body, properties: Object.fromEntries(properties), required: tool.required ?? body.required ?? [] };
}

/** The arguments the caller actually gave (non-null): auto_parameters lets explicit values win over its choices. */
function explicitFieldsOf(args: Record<string, unknown>): ReadonlySet<string> {
  return new Set(Object.keys(args).filter((name) => args[name] !== null && args[name] !== undefined));
}
