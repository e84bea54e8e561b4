// Real `@tavily/core` requests against a loopback server: every body the official client sends must pass
// our request DTOs, and our response shapes must be readable by the client without it throwing.
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { tavily } from '@tavily/core';
import { ClassConstructor, plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { CrawlRequestDto } from './crawl/crawl-request.dto';
import { CrawlResponseDto } from './crawl/crawl-response.dto';
import { ExtractRequestDto } from './extract/extract-request.dto';
import { ExtractResponseDto } from './extract/extract-response.dto';
import { FeedbackRequestDto } from './feedback/feedback-request.dto';
import { FeedbackResponseDto } from './feedback/feedback-response.dto';
import { MapRequestDto } from './map/map-request.dto';
import { MapResponseDto } from './map/map-response.dto';
import { ResearchRequestDto } from './research/research-request.dto';
import { ResearchResponseDto } from './research/research-response.dto';
import { SearchRequestDto } from './search/search-request.dto';
import { SearchResponseDto } from './search/search-response.dto';

const searchResponse: SearchResponseDto = {
  query: 'q',
  results: [
    {
      id: 'r1',
      title: 'Title',
      url: 'https://example.com/',
      content: 'chunk [...] chunk',
      score: 0.9,
      published_date: '2025-05-01T00:00:00.000Z',
      published_date_source: 'import',
    },
  ],
  images: [],
  response_time: 0.1,
  request_id: 'req-search',
  // Sift's extra fields: an official client must read the response with them present.
  warnings: ["include_domains: 1 invalid entry was dropped: ['edu']; searched with the other 1."],
};
const extractResponse: ExtractResponseDto = {
  results: [{ url: 'https://example.com/', title: null, raw_content: '# Page' }],
  failed_results: [{ url: 'https://unreachable.example/', error: 'timeout', error_code: 'timeout', retryable: true }],
  response_time: 0.1,
  request_id: 'req-extract',
  warnings: ['Every URL failed (timeout).'],
};
const crawlResponse: CrawlResponseDto = {
  base_url: 'https://example.com',
  results: [{ url: 'https://example.com/', raw_content: '# Page' }],
  response_time: 0.1,
  request_id: 'req-crawl',
  failed_results: [{ url: 'https://example.com/gone', error: 'HTTP 404', error_code: 'not_found', retryable: false }],
  warnings: ['1 link was not followed: the site\'s robots.txt disallows it.'],
};
const mapResponse: MapResponseDto = {
  base_url: 'https://example.com',
  results: ['https://example.com/a'],
  response_time: 0.1,
  request_id: 'req-map',
  failed_results: [{ url: 'https://example.com/', error: 'Disallowed by robots.txt', error_code: 'robots', retryable: false }],
  warnings: ['1 link was not followed: the site\'s robots.txt disallows it.'],
};
const researchResponse: ResearchResponseDto = {
  request_id: 'req-research',
  created_at: '2025-06-01T12:00:00.000Z',
  status: 'pending',
  input: 'question',
  model: 'auto',
  response_time: 0.1,
};
const feedbackResponse: FeedbackResponseDto = { success: true, feedback_id: 'fb-1', response_time: 0.01 };

const responses: Record<string, object> = {
  '/search': searchResponse,
  '/extract': extractResponse,
  '/crawl': crawlResponse,
  '/map': mapResponse,
  '/research': researchResponse,
  '/feedback': feedbackResponse,
};

describe('@tavily/core request bodies pass the request DTOs', () => {
  let server: Server;
  let client: ReturnType<typeof tavily>;
  const bodies = new Map<string, unknown>();

  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '';
        bodies.set(path, JSON.parse(Buffer.concat(chunks).toString('utf8')));
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(responses[path] ?? {}));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    client = tavily({ apiKey: 'tvly-compatibility-test', apiBaseURL: `http://127.0.0.1:${port}` });
  });

  afterAll(async () => {
    await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  });

  async function invalidFields<T extends object>(type: ClassConstructor<T>, path: string): Promise<string[]> {
    const body = bodies.get(path);
    expect(body).toBeDefined();
    const errors = await validate(plainToInstance(type, body as object), { whitelist: true });
    return errors.map((error) => error.property);
  }

  it('search with every option the client knows', async () => {
    const response = await client.search('latest rust release', {
      searchDepth: 'advanced',
      topic: 'news',
      maxResults: 20,
      includeImages: true,
      includeImageDescriptions: true,
      includeAnswer: 'advanced',
      includeRawContent: 'text',
      includeDomains: ['rust-lang.org'],
      excludeDomains: ['spam.example'],
      includeDomainsMode: 'restrict',
      timeRange: 'w',
      chunksPerSource: 5,
      country: 'united states',
      startDate: '2025-01-01',
      endDate: '2025-06-30',
      autoParameters: true,
      includeFavicon: true,
      includeUsage: true,
      exactMatch: true,
      language: 'en',
      filterByLanguage: true,
    });
    expect(response.requestId).toBe('req-search');
    expect(await invalidFields(SearchRequestDto, '/search')).toEqual([]);
    const dto = plainToInstance(SearchRequestDto, bodies.get('/search') as object);
    expect(dto.include_domains_mode).toBe('filter');
    expect(dto.time_range).toBe('w');
  });

  it('search with defaults only', async () => {
    await client.search('hello');
    expect(await invalidFields(SearchRequestDto, '/search')).toEqual([]);
  });

  it('extract', async () => {
    const response = await client.extract(['https://example.com/', 'https://unreachable.example/'], {
      extractDepth: 'advanced',
      format: 'text',
      timeout: 20,
      includeImages: true,
      includeFavicon: true,
      includeUsage: true,
      query: 'pricing',
      chunksPerSource: 2,
    });
    expect(response.failedResults).toHaveLength(1);
    expect(await invalidFields(ExtractRequestDto, '/extract')).toEqual([]);
  });

  it('crawl', async () => {
    const response = await client.crawl('https://example.com', {
      maxDepth: 3,
      maxBreadth: 100,
      limit: 200,
      instructions: 'only the docs',
      extractDepth: 'basic',
      selectPaths: ['/docs/.*'],
      selectDomains: ['^docs\\.example\\.com$'],
      excludePaths: ['/private/.*'],
      excludeDomains: ['^ads\\.'],
      allowExternal: false,
      includeImages: true,
      format: 'markdown',
      timeout: 60,
      includeFavicon: true,
      includeUsage: true,
      chunksPerSource: 4,
    });
    expect(response.baseUrl).toBe('https://example.com');
    expect(await invalidFields(CrawlRequestDto, '/crawl')).toEqual([]);
  });

  it('map', async () => {
    const response = await client.map('https://example.com', { maxDepth: 2, limit: 10, instructions: 'blog', timeout: 30, includeUsage: true });
    expect(response.results).toEqual(['https://example.com/a']);
    expect(await invalidFields(MapRequestDto, '/map')).toEqual([]);
  });

  it('research', async () => {
    const response = await client.research('question', { model: 'pro', citationFormat: 'apa', outputSchema: { properties: {} } });
    expect(response).toMatchObject({ requestId: 'req-research', status: 'pending' });
    expect(await invalidFields(ResearchRequestDto, '/research')).toEqual([]);
  });

  it('feedback', async () => {
    const response = await client.feedback({
      requestId: 'req-search',
      sessionId: 'session-1',
      agentScore: 4,
      humanScore: 'thumbs_up',
      extraScores: [{ label: 'relevance', value: 0.8 }],
      usedIds: ['r1'],
      usedUrls: ['https://example.com/'],
      usedCitations: ['chunk'],
      urlsScores: [{ id: 'r1', agentScore: 5, scores: [{ label: 'freshness', value: 'high' }], comment: 'best' }],
      comment: 'good',
      responseDelivered: 'answer',
    });
    expect(response.feedbackId).toBe('fb-1');
    expect(await invalidFields(FeedbackRequestDto, '/feedback')).toEqual([]);
  });
});
