import { All, Controller, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiExcludeEndpoint, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { API_KEY_SCHEME } from '../openapi';
import type { Request, Response } from 'express';
import { ApiError } from '../http/api-error';
import { Ctx, RequestContext } from '../caller/request-context';
import { KeylessAllowed, RateLimitedPerToolCall } from '../caller/route-access.decorator';
import { McpService } from './mcp.service';

/**
 * MCP (streamable HTTP) at /mcp: JSON-RPC over POST; a stateless server keeps no sessions or event streams. The
 * guard authenticates (Bearer header, `?tavilyApiKey=`, or the keyless header); the service rate-limits per tool call.
 */
@ApiTags('mcp')
@Controller('mcp')
export class McpController {
  constructor(private readonly mcpService: McpService) {}

  @Post()
  @KeylessAllowed()
  @RateLimitedPerToolCall()
  @ApiOperation({
    operationId: 'mcp',
    summary: 'MCP server (streamable HTTP, stateless): tavily_search, tavily_extract, tavily_crawl, tavily_map, tavily_research, tavily_get_research and tavily_feedback over JSON-RPC',
    description:
      'Point an MCP client at this URL. Send `Accept: application/json, text/event-stream`. Authenticate with the Bearer ' +
      'key, `?tavilyApiKey=<key>` for clients that can only be given a URL, or the keyless header. A spent rate limit ' +
      "is reported as that tool call's error, not as an HTTP 429.",
  })
  @ApiBearerAuth(API_KEY_SCHEME)
  @ApiHeader({ name: 'X-Service-Access-Mode', required: false, enum: ['keyless'], description: 'keyless: use the tools without an API key, within the keyless budget.' })
  @ApiBody({ description: 'A JSON-RPC 2.0 message or batch.', schema: { type: 'object' }, examples: { listTools: { summary: 'List the tools', value: { jsonrpc: '2.0', id: 1, method: 'tools/list' } } } })
  @ApiOkResponse({ description: 'The JSON-RPC answer.' })
  handle(@Ctx() context: RequestContext, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.mcpService.handle(context, request, response);
  }

  @All()
  @KeylessAllowed()
  @ApiExcludeEndpoint()
  other(): never {
    throw new ApiError(405, 'This MCP server is stateless: send JSON-RPC messages with POST.', { Allow: 'POST' });
  }
}
