import type { NextFunction, Request, Response } from 'express';

/** The query parameter Tavily's MCP URL carries the key in: `/mcp?tavilyApiKey=<key>`. */
export const URL_API_KEY_PARAMETER = 'tavilyApiKey';

/**
 * For MCP clients that can only be given a URL: the key in `?tavilyApiKey=` becomes the Bearer header the guard
 * reads (an Authorization header already sent wins), and it is cut out of the request's URLs before anything else
 * sees the request, so no log line, metric or error report can carry it.
 */
export function urlApiKeyMiddleware(request: Request, _response: Response, next: NextFunction): void {
  const apiKey = queryOf(request.originalUrl).get(URL_API_KEY_PARAMETER);
  if (apiKey === null) return next();
  request.url = withoutApiKey(request.url);
  request.originalUrl = withoutApiKey(request.originalUrl);
  if (apiKey && !request.headers.authorization) request.headers.authorization = `Bearer ${apiKey}`;
  next();
}

function queryOf(url: string): URLSearchParams {
  const queryStart = url.indexOf('?');
  return new URLSearchParams(queryStart === -1 ? '' : url.slice(queryStart + 1));
}

function withoutApiKey(url: string): string {
  const parameters = queryOf(url);
  parameters.delete(URL_API_KEY_PARAMETER);
  const path = url.split('?', 1)[0];
  return parameters.size > 0 ? `${path}?${parameters.toString()}` : path;
}
