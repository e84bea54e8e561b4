import type { Request } from 'express';
import { urlApiKeyMiddleware } from './url-api-key.middleware';

describe('urlApiKeyMiddleware', () => {
  function run(url: string, authorization?: string) {
    const request = { url, originalUrl: url, headers: authorization ? { authorization } : {} } as unknown as Request;
    const next = jest.fn();
    urlApiKeyMiddleware(request, {} as never, next);
    expect(next).toHaveBeenCalledWith();
    return { url: request.url, originalUrl: request.originalUrl, authorization: request.headers.authorization };
  }

  it('turns the key in the URL into the Bearer header and cuts it out of both URLs, keeping other parameters', () => {
    expect(run('/mcp?tavilyApiKey=sift-dev-secret')).toEqual({ url: '/mcp', originalUrl: '/mcp', authorization: 'Bearer sift-dev-secret' });
    expect(run('/mcp?profile=x&tavilyApiKey=sift-dev-secret&b=2')).toEqual({
      url: '/mcp?profile=x&b=2',
      originalUrl: '/mcp?profile=x&b=2',
      authorization: 'Bearer sift-dev-secret',
    });
  });

  it('lets an Authorization header win, and still cuts the key out of the URL', () => {
    expect(run('/mcp?tavilyApiKey=sift-dev-secret', 'Bearer sift-dev-header')).toEqual({ url: '/mcp', originalUrl: '/mcp', authorization: 'Bearer sift-dev-header' });
  });

  it('leaves a URL without the parameter alone, and an empty key authenticates nothing', () => {
    expect(run('/mcp?profile=x')).toEqual({ url: '/mcp?profile=x', originalUrl: '/mcp?profile=x', authorization: undefined });
    expect(run('/mcp?tavilyApiKey=')).toEqual({ url: '/mcp', originalUrl: '/mcp', authorization: undefined });
  });
});
