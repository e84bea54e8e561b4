import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerQuestion } from './answer-question';
import { describeImages } from './describe-images';
import { LlmError } from './llm-client';
import { OpenAiCompatibleClient } from './openai-compatible.client';

interface ReceivedRequest {
  path: string;
  authorization?: string;
  body: { model: string; messages: { role: string; content: string }[]; max_tokens?: number; temperature?: number };
}

// The chat.completion object as OpenAI (and vLLM, llama.cpp server, Ollama's /v1) returns it.
function chatCompletion(content: string) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_763_800_000,
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 120, completion_tokens: 20, total_tokens: 140 },
    system_fingerprint: 'fp_test',
  };
}

const chunks = [
  { url: 'https://volcano.example/guide', title: 'Volcano guide', content: 'Mount Etna is the most active volcano in Europe. It lies on the east coast of Sicily.' },
  { url: 'https://travel.example/sicily', title: 'Sicily travel', content: 'Visitors to Sicily often climb Mount Etna in summer. The summit reaches about 3,300 metres.' },
];

describe('OpenAiCompatibleClient against a loopback chat-completions server', () => {
  let server: Server;
  let baseUrl: string;
  const received: ReceivedRequest[] = [];
  let reply: { status: number; body: unknown } = { status: 200, body: chatCompletion('') };

  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      let raw = '';
      request.setEncoding('utf8');
      request.on('data', (part: string) => (raw += part));
      request.on('end', () => {
        received.push({ path: request.url ?? '', authorization: request.headers.authorization, body: JSON.parse(raw) });
        response.writeHead(reply.status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(reply.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    received.length = 0;
  });

  it('answers with the model, grounded in numbered sources, and says so', async () => {
    reply = { status: 200, body: chatCompletion('Mount Etna, on Sicily, is Europe’s most active volcano [1].') };
    const client = new OpenAiCompatibleClient({ baseUrl, apiKey: 'sk-test', model: 'test-model', policy: { allowCidrs: [] } });

    const answer = await answerQuestion('What is the most active volcano in Europe?', chunks, 'basic', { client });

    expect(answer).toEqual({
      answer: 'Mount Etna, on Sicily, is Europe’s most active volcano [1].',
      mode: 'llm',
      sources: [
        { url: 'https://volcano.example/guide', title: 'Volcano guide' },
        { url: 'https://travel.example/sicily', title: 'Sicily travel' },
      ],
    });
    expect(received).toHaveLength(1);
    expect(received[0].path).toBe('/v1/chat/completions');
    expect(received[0].authorization).toBe('Bearer sk-test');
    expect(received[0].body.model).toBe('test-model');
    expect(received[0].body.messages[0].role).toBe('system');
    expect(received[0].body.messages[1].content).toContain('<source id="2" url="https://travel.example/sicily" title="Sicily travel">\nVisitors to Sicily');
    expect(received[0].body.messages[1].content).toContain('Question: What is the most active volcano in Europe?');
  });

  it('raises the server’s error, and the answer falls back to extractive with the reason', async () => {
    reply = { status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } } };
    const client = new OpenAiCompatibleClient({ baseUrl, apiKey: 'wrong', model: 'test-model', policy: { allowCidrs: [] } });

    await expect(client.complete([{ role: 'user', content: 'hi' }])).rejects.toThrow(LlmError);
    const answer = await answerQuestion('most active volcano in Europe', chunks, 'basic', { client });
    expect(answer.mode).toBe('extractive');
    expect(answer.fallbackReason).toMatch(/401.*Incorrect API key/);
    expect(answer.answer).toContain('Mount Etna is the most active volcano in Europe. [1]');
  });

  it('describes images with the model, keeping alt text for images it skipped', async () => {
    reply = { status: 200, body: chatCompletion('```json\n["Lava flowing down the flank of Mount Etna at night."]\n```') };
    const client = new OpenAiCompatibleClient({ baseUrl, model: 'test-model', policy: { allowCidrs: [] } });

    const result = await describeImages(
      [
        { url: 'https://volcano.example/lava.jpg', alt: 'Lava at night', pageTitle: 'Volcano guide' },
        { url: 'https://volcano.example/map.png', alt: 'Map of Sicily', caption: 'Etna is in the east' },
      ],
      'etna eruption',
      { client },
    );

    expect(result).toEqual({
      mode: 'llm',
      descriptions: [
        { url: 'https://volcano.example/lava.jpg', description: 'Lava flowing down the flank of Mount Etna at night.' },
        { url: 'https://volcano.example/map.png', description: 'Map of Sicily — Etna is in the east' },
      ],
    });
    expect(received[0].authorization).toBeUndefined();
  });
});
