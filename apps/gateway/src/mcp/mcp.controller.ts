import { All, Controller, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiError } from '../http/api-error';
import { Ctx, RequestContext } from '../caller/request-context';
import { KeylessAllowed, RateLimitedPerToolCall } from '../caller/route-access.decorator';
import { McpService } from './mcp.service';

/**
 * MCP (streamable HTTP) at /mcp: JSON-RPC over POST; a stateless server keeps no sessions or event streams. The
 * guard authenticates (Bearer header, `?tavilyApiKey=`, or the keyless header); the service rate-limits per tool call.
 */
@ApiExcludeController()
@Controller('mcp')
export class McpController {
  constructor(private readonly mcpService: McpService) {}

  @Post()
  @KeylessAllowed()
  @RateLimitedPerToolCall()
  handle(@Ctx() context: RequestContext, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.mcpService.handle(context, request, response);
  }

  @All()
  @KeylessAllowed()
  other(): never {
    throw new ApiError(405, 'This MCP server is stateless: send JSON-RPC messages with POST.', { Allow: 'POST' });
  }
}
