import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** A chat-completions request as the server received it. */
export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  stream?: boolean;
  [option: string]: unknown;
}

/**
 * What the model says to one request: a whole reply, or a reply streamed in the given pieces (when asked to stream);
 * or a model that never ends: `endless` streams its piece every `intervalMs` until the client goes away, `silent`
 * never answers at all.
 */
export type ChatReply = { text: string } | { pieces: string[] } | { endless: string; intervalMs: number } | { silent: true };

export interface LoopbackChatServer {
  /** The base URL an OpenAI-compatible client is configured with (`LLM_BASE_URL`): `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  /** Every request received, in order. */
  received: ChatRequest[];
  close(): Promise<void>;
}

const CREATED = 1_763_800_000;

/** One `chat.completion.chunk` event, as OpenAI (and vLLM, llama.cpp's server, Ollama's /v1) stream them. */
export function chatCompletionChunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  const chunk = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: CREATED, model: 'test-model', system_fingerprint: 'fp_test', choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

function chatCompletion(content: string) {
  return { id: 'chatcmpl-1', object: 'chat.completion', created: CREATED, model: 'test-model', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] };
}

function answer(request: ChatRequest, reply: ChatReply, response: ServerResponse): void {
  if ('silent' in reply) return;
  if ('endless' in reply) {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const timer = setInterval(() => response.write(chatCompletionChunk({ content: reply.endless })), reply.intervalMs);
    response.on('close', () => clearInterval(timer));
    return;
  }
  const pieces = 'pieces' in reply ? reply.pieces : [reply.text];
  if (!request.stream) {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(chatCompletion(pieces.join(''))));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.write(chatCompletionChunk({ role: 'assistant', content: '' }));
  for (const piece of pieces) response.write(chatCompletionChunk({ content: piece }));
  response.write(chatCompletionChunk({}, 'stop'));
  response.end('data: [DONE]\n\n');
}

/**
 * An OpenAI-compatible model on loopback, speaking the real `POST /v1/chat/completions` wire format: a JSON
 * `chat.completion`, or with `stream: true` server-sent `chat.completion.chunk` events ending with `data: [DONE]`.
 * `reply` scripts what it says to each request (and sees every earlier one).
 */
export async function startLoopbackChatServer(reply: (request: ChatRequest, received: ChatRequest[]) => ChatReply): Promise<LoopbackChatServer> {
  const received: ChatRequest[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (part: string) => (raw += part));
    request.on('end', () => {
      const body = JSON.parse(raw) as ChatRequest;
      received.push(body);
      answer(body, reply(body, received), response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Requests a silent or endless reply still holds open.
        server.closeAllConnections();
      }),
  };
}
