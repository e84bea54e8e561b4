import { randomUUID } from 'node:crypto';
import { TavilyGetResearch, TavilyResearch } from '@langchain/tavily';
import { tavily } from '@tavily/core';
import { LoopbackServer, startLoopbackServer } from './loopback-server';
import { SiftStack, startSiftStack } from './sift-stack';

/** GET /research/{id} as the client returns it (the raw body: snake_case). */
interface ResearchState {
  request_id: string;
  status: string;
  content?: string | Record<string, unknown>;
  sources?: Array<{ title: string; url: string }>;
  error?: string;
}

/** Polls until the task leaves pending/in_progress (GET answers 202 until then). */
async function pollUntilFinished(poll: () => Promise<ResearchState>, timeoutMs = 90_000): Promise<ResearchState> {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const state = await poll();
    seen.push(state.status);
    if (state.status !== 'pending' && state.status !== 'in_progress') return state;
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`the research task did not finish within ${timeoutMs / 1000} s (states seen: ${seen.join(', ')})`);
}

interface ServerSentEvent {
  event: string;
  data: string;
}

/** Server-sent events of a complete stream body (frames separated by a blank line; `event:` defaults to message). */
function serverSentEventsOf(body: string): ServerSentEvent[] {
  return body
    .split(/\r?\n\r?\n/)
    .filter((frame) => frame.trim())
    .map((frame) => {
      const lines = frame.split(/\r?\n/);
      const field = (name: string) => lines.filter((line) => line.startsWith(`${name}:`)).map((line) => line.slice(name.length + 1).trimStart());
      return { event: field('event')[0] ?? 'message', data: field('data').join('\n') };
    });
}

function citationNumbersOf(report: string): number[] {
  return [...report.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
}

// The whole stack runs in child processes beside the rest of the suite on two cores; a run that loses a race for
// CPU is retried once, and the first failure is still printed.
jest.retryTimes(1, { logErrorsBeforeRetry: true });

// The official clients, unmodified, running research on Sift started by `npm start` (no LLM configured, so the
// reports are extractive). SearXNG is the outside world (a loopback server speaking its format=json) and lists two
// loopback pages, which Sift's research worker reads through the extractor worker.
describe('research through the official clients against Sift (npm start)', () => {
  let stack: SiftStack;
  let site: LoopbackServer;
  let searxng: LoopbackServer;
  const marker = `qorvane${randomUUID().replace(/-/g, '').slice(0, 8)}`;
  const question = `How long is the ${marker} bridge, and when was the ${marker} tunnel opened?`;
  const page = (title: string, sentences: string[]) =>
    `<!doctype html><html lang="en"><head><title>${title}</title></head><body><article><h1>${title}</h1>` +
    sentences.map((sentence) => `<p>${sentence}</p>`).join('') +
    `<p>${'A paragraph that pads the article to a realistic length for the extractor. '.repeat(5)}</p></article></body></html>`;

  beforeAll(async () => {
    site = await startLoopbackServer({
      '/bridge': (_request, response) =>
        response
          .writeHead(200, { 'content-type': 'text/html' })
          .end(page(`The ${marker} bridge`, [`The ${marker} bridge is 840 metres long and spans the bay.`, `The ${marker} bridge carries four lanes of traffic and a cycle path.`])),
      '/tunnel': (_request, response) =>
        response
          .writeHead(200, { 'content-type': 'text/html' })
          .end(page(`The ${marker} tunnel`, [`The ${marker} tunnel opened in 1998, two years after the bridge.`, `The ${marker} tunnel runs 3 kilometres under the harbour.`])),
    });
    searxng = await startLoopbackServer({
      '/search': (request, response) => {
        const query = new URL(request.url ?? '/', 'http://searxng').searchParams.get('q') ?? '';
        const results = [
          { url: `${site.url}/bridge`, title: `The ${marker} bridge`, content: 'Bridge snippet.', engine: 'bing', engines: ['bing'], score: 2, category: 'general', publishedDate: null },
          { url: `${site.url}/tunnel`, title: `The ${marker} tunnel`, content: 'Tunnel snippet.', engine: 'bing', engines: ['bing'], score: 1, category: 'general', publishedDate: null },
        ];
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ query, number_of_results: results.length, results, answers: [], suggestions: [] }));
      },
    });
    stack = await startSiftStack({ SEARXNG_URL: searxng.url, LLM_BASE_URL: '' });
  }, 120_000);

  afterAll(async () => {
    await Promise.all([stack?.stop(), site?.close(), searxng?.close()]);
  });

  it('@tavily/core research() queues a task that getResearch() polls to a cited report', async () => {
    const client = tavily({ apiKey: stack.createKey('growth'), apiBaseURL: stack.baseUrl });
    const queued = await client.research(question, { model: 'mini' });
    if (!('requestId' in queued)) throw new Error('research() without stream returned a stream');
    expect(queued).toEqual(expect.objectContaining({ status: 'pending', input: question, model: 'mini' }));
    expect(queued.requestId).toMatch(/^[0-9a-f-]{36}$/);

    const final = await pollUntilFinished(() => client.getResearch(queued.requestId) as unknown as Promise<ResearchState>);
    expect(final.error).toBeUndefined();
    expect(final.status).toBe('completed');
    expect(final.request_id).toBe(queued.requestId);
    expect(typeof final.content).toBe('string');
    const report = final.content as string;
    expect(report).toContain('840 metres');
    expect(report).toContain('1998');
    expect(final.sources?.map((source) => source.url)).toEqual(expect.arrayContaining([`${site.url}/bridge`, `${site.url}/tunnel`]));
    const citations = citationNumbersOf(report);
    expect(citations.length).toBeGreaterThan(0);
    for (const citation of citations) expect(citation).toBeLessThanOrEqual(final.sources?.length ?? 0);
  }, 120_000);

  it('@tavily/core research({stream: true}) streams tool calls, content and sources, then ends with event: done', async () => {
    const client = tavily({ apiKey: stack.createKey('growth'), apiBaseURL: stack.baseUrl });
    const stream = await client.research(question, { model: 'mini', stream: true });
    if ('requestId' in stream) throw new Error('research({stream: true}) returned a queued task, not a stream');
    let body = '';
    for await (const chunk of stream) body += chunk.toString('utf8');

    const events = serverSentEventsOf(body);
    expect(events.at(-1)?.event).toBe('done');
    expect(events.some((event) => event.event === 'error')).toBe(false);
    const frames = events.filter((event) => event.event === 'message').map((event) => JSON.parse(event.data) as { object: string; id: string; model: string; created: number; choices: Array<{ delta: Record<string, unknown> }> });
    expect(frames.length).toBeGreaterThan(0);
    for (const frame of frames) {
      expect(frame).toEqual(expect.objectContaining({ object: 'chat.completion.chunk', id: expect.any(String), model: expect.any(String), created: expect.any(Number) }));
    }
    const deltas = frames.map((frame) => frame.choices[0].delta);
    const toolCallNames = deltas.flatMap((delta) => {
      const toolCalls = delta.tool_calls as { type: string; tool_call: Array<{ name: string }> } | undefined;
      return toolCalls?.type === 'tool_call' ? toolCalls.tool_call.map((call) => call.name) : [];
    });
    expect(toolCallNames).toEqual(expect.arrayContaining(['Planning', 'WebSearch', 'Generating']));
    const report = deltas.map((delta) => (typeof delta.content === 'string' ? delta.content : '')).join('');
    expect(report).toContain('840 metres');
    const sourcesDelta = deltas.find((delta) => Array.isArray(delta.sources));
    expect((sourcesDelta?.sources as Array<{ url: string }>).map((source) => source.url)).toEqual(expect.arrayContaining([`${site.url}/bridge`]));
    // The sources come after the report's content.
    expect(deltas.indexOf(sourcesDelta ?? {})).toBeGreaterThan(deltas.findIndex((delta) => typeof delta.content === 'string'));
  }, 120_000);

  it('@langchain/tavily TavilyResearch queues a task that TavilyGetResearch reads to completion', async () => {
    const apiKey = stack.createKey('growth');
    const research = new TavilyResearch({ tavilyApiKey: apiKey, apiBaseUrl: stack.baseUrl, model: 'mini' });
    const getResearch = new TavilyGetResearch({ tavilyApiKey: apiKey, apiBaseUrl: stack.baseUrl });

    // The tools turn any failure into { error }; surface it rather than a TypeError.
    const queued = (await research.invoke({ input: question })) as { request_id?: string; status?: string; error?: string };
    expect(queued.error).toBeUndefined();
    expect(queued.status).toBe('pending');

    const final = await pollUntilFinished(() => getResearch.invoke({ requestId: queued.request_id ?? '' }) as Promise<ResearchState>);
    expect(final.error).toBeUndefined();
    expect(final.status).toBe('completed');
    expect(final.content).toEqual(expect.stringContaining('1998'));
    expect(final.sources?.map((source) => source.url)).toContain(`${site.url}/tunnel`);

    const unknown = (await getResearch.invoke({ requestId: randomUUID() })) as { error?: string };
    expect(unknown.error).toBe('Error 404: Research task not found');
  }, 120_000);
});
