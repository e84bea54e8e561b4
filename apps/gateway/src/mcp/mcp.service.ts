import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, Response } from 'express';
import { ApiError } from '../common/api-error';
import type { RequestContext } from '../common/request-context';
import { ExtractService } from '../extract/extract.service';
import { SearchService } from '../search/search.service';
import { EXTRACT_DTO, extractToolArguments, SEARCH_DTO, searchToolArguments, toDto, ToolArgumentError } from './mcp-tools';

interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  isError?: boolean;
}

/**
 * The remote tool server: MCP over streamable HTTP, stateless (every POST carries its own JSON-RPC exchange), with
 * the search and extract tools. Each tool call is its own billed request (own request id), authenticated and
 * rate-limited like the HTTP endpoints by the guard that already ran for this request.
 */
@Injectable()
export class McpService {
  constructor(
    private readonly searchService: SearchService,
    private readonly extractService: ExtractService,
  ) {}

  async handle(context: RequestContext, request: Request, response: Response): Promise<void> {
    const server = new McpServer({ name: 'sift', version: '1.0.0' });
    server.registerTool(
      'search',
      { title: 'Web search', description: 'Search the web (Sift local index and configured engines); returns ranked results with content chunks.', inputSchema: searchToolArguments },
      (input) => this.run(context, async (callContext) => this.searchService.search(callContext, await toDto(SEARCH_DTO, input), new Set(Object.keys(input)))),
    );
    server.registerTool(
      'extract',
      { title: 'Extract pages', description: 'Extract the cleaned content of up to 20 URLs as markdown or text.', inputSchema: extractToolArguments },
      (input) => this.run(context, async (callContext) => this.extractService.extract(callContext, await toDto(EXTRACT_DTO, input))),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, request.body);
  }

  private async run(context: RequestContext, work: (callContext: RequestContext) => Promise<unknown>): Promise<ToolResult> {
    // A fresh request id per tool call keeps the ledger's (request id, kind) key unique per call.
    const callContext: RequestContext = { ...context, requestId: randomUUID(), startedAt: process.hrtime.bigint(), credits: 0 };
    try {
      const result = await work(callContext);
      context.credits += callContext.credits;
      return { content: [{ type: 'text', text: JSON.stringify(result) }] };
    } catch (error) {
      if (error instanceof ToolArgumentError) return toolError(`Invalid arguments: ${error.message}`);
      if (error instanceof ApiError) {
        const body = error.getResponse() as { detail?: { error?: string } };
        return toolError(`${error.getStatus()}: ${body.detail?.error ?? error.message}`);
      }
      throw error;
    }
  }
}

function toolError(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
