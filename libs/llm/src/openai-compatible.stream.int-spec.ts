import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LlmError } from './llm-client';
import { OpenAiCompatibleClient } from './openai-compatible.client';

// One chat.completion.chunk event as OpenAI (and vLLM, llama.cpp server, Ollama's /v1) stream it.
function chunkEvent(delta: Record<string, unknown>, finish: string | null = null): string {
  const chunk = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1_763_800_000, model: 'test-model', system_fingerprint: 'fp_test', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

describe('OpenAiCompatibleClient.stream against a loopback server streaming chat.completion.chunk events', () => {
  let server: Server;
  let client: OpenAiCompatibleClient;
  let handle: (body: Record<string, unknown>, response: ServerResponse) => void = () => undefined;

  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      let raw = '';
      request.setEncoding('utf8');
      request.on('data', (part: string) => (raw += part));
      request.on('end', () => handle(JSON.parse(raw) as Record<string, unknown>, response));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = new OpenAiCompatibleClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, apiKey: 'sk-test', model: 'test-model', policy: { allowCidrs: [] } });
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('gives each piece as it arrives, before the server has finished, and stops at [DONE]', async () => {
    let finish: () => void = () => undefined;
    const received: Record<string, unknown>[] = [];
    handle = (body, response) => {
      received.push(body);
      response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
      response.write(': keep-alive\n\n');
      response.write(chunkEvent({ role: 'assistant', content: '' }));
      response.write(chunkEvent({ content: 'Mount Etna ' }));
      finish = () => {
        // The next event split across two writes, mid-JSON, and a multi-byte character cut in two.
        const event = chunkEvent({ content: 'is in Sicíly [1].' });
        const bytes = Buffer.from(event);
        const cut = bytes.indexOf(Buffer.from('í')) + 1;
        response.write(bytes.subarray(0, cut));
        setTimeout(() => {
          response.write(bytes.subarray(cut));
          response.write(chunkEvent({}, 'stop'));
          response.write('data: [DONE]\n\n');
          response.end();
        }, 20);
      };
    };

    const pieces: string[] = [];
    for await (const piece of client.stream([{ role: 'user', content: 'Where is Etna?' }], { maxTokens: 50 })) {
      pieces.push(piece);
      if (pieces.length === 1) finish();
    }

    expect(pieces).toEqual(['Mount Etna ', 'is in Sicíly [1].']);
    expect(received[0]).toEqual(expect.objectContaining({ model: 'test-model', stream: true, max_tokens: 50 }));
  });

  it('raises the server’s error for a refused stream, and an error event sent mid-stream', async () => {
    handle = (_body, response) => {
      response.writeHead(429, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }));
    };
    await expect(drain(client.stream([{ role: 'user', content: 'hi' }]))).rejects.toThrow(new LlmError('the model server answered 429: Rate limit reached'));

    handle = (_body, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(chunkEvent({ content: 'Half' }));
      response.end(`data: ${JSON.stringify({ error: { message: 'The server had an error while processing your request.' } })}\n\n`);
    };
    await expect(drain(client.stream([{ role: 'user', content: 'hi' }]))).rejects.toThrow(/failed while streaming: The server had an error/);
  });

  it('ends at the caller’s signal: an endless stream gives no piece after it and its connection is closed, an unanswered call is cancelled', async () => {
    let closed = false;
    handle = (_body, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => response.write(chunkEvent({ content: 'more ' })), 20);
      response.on('close', () => {
        clearInterval(timer);
        closed = true;
      });
    };
    const caller = new AbortController();
    const pieces: number[] = [];
    let abortedAt = Infinity;
    setTimeout(() => {
      abortedAt = Date.now();
      caller.abort(new Error('the task ran out of time'));
    }, 300);
    // A deadline far beyond the signal: only the signal can end this stream in time.
    const stream = client.stream([{ role: 'user', content: 'hi' }], { deadlineMs: 120_000, signal: caller.signal });
    await expect(drain(stream, () => pieces.push(Date.now()))).rejects.toThrow();
    expect(pieces.length).toBeGreaterThan(3);
    expect(Math.max(...pieces)).toBeLessThanOrEqual(abortedAt);
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
    await until(() => closed);

    handle = () => undefined;
    const silent = new AbortController();
    setTimeout(() => silent.abort(new Error('the task ran out of time')), 300);
    const startedAt = Date.now();
    await expect(client.complete([{ role: 'user', content: 'hi' }], { deadlineMs: 120_000, signal: silent.signal })).rejects.toThrow();
    expect(Date.now() - startedAt).toBeLessThan(3_000);
  });
});

async function until(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const startedAt = Date.now();
  while (!condition()) {
    if (Date.now() - startedAt > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function drain(pieces: AsyncIterable<string>, onPiece: () => void = () => undefined): Promise<string> {
  let text = '';
  for await (const piece of pieces) {
    onPiece();
    text += piece;
  }
  return text;
}
