import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How the model server misbehaves, for the failure tests: an error status, an answer slower than `delayMs`, vectors
 * of another size, NaN in a vector or score, a body that is not JSON, or no answer at all.
 */
export type ModelServerFault = 'none' | 'http-500' | 'wrong-dimension' | 'nan' | 'malformed' | 'silent';

export interface LoopbackModelServerOptions {
  /** The vector of one input (its size is the model's dimension). */
  embed: (text: string) => number[];
  /** A cross-encoder's score of one passage for a query. */
  score: (query: string, passage: string) => number;
}

/** A request as the server received it: its path and JSON body. */
export interface ModelRequest {
  path: string;
  body: Record<string, unknown>;
}

export interface LoopbackModelServer {
  /** EMBEDDINGS_BASE_URL: `http://127.0.0.1:<port>/v1` (POST /v1/embeddings, and the Cohere/Jina POST /v1/rerank). */
  baseUrl: string;
  /** RERANK_BASE_URL of the text-embeddings-inference format: `http://127.0.0.1:<port>` (POST /rerank). */
  teiUrl: string;
  received: ModelRequest[];
  /** Set by a test: how the next answers go wrong. */
  fault: ModelServerFault;
  /** Set by a test: time before each answer, in ms. */
  delayMs: number;
  /** The model name answers carry. */
  model: string;
  close(): Promise<void>;
}

function embeddingsAnswer(server: LoopbackModelServer, options: LoopbackModelServerOptions, input: string[]): unknown {
  return {
    object: 'list',
    model: server.model,
    data: input.map((text, index) => {
      let embedding = options.embed(text);
      if (server.fault === 'wrong-dimension') embedding = [...embedding, 0.5];
      if (server.fault === 'nan') embedding = embedding.map((value, component) => (component === 0 ? Number.NaN : value));
      return { object: 'embedding', index, embedding };
    }),
    usage: { prompt_tokens: input.length, total_tokens: input.length },
  };
}

function scoresOf(server: LoopbackModelServer, options: LoopbackModelServerOptions, query: string, passages: string[]): { index: number; score: number }[] {
  return passages
    .map((passage, index) => ({ index, score: server.fault === 'nan' ? Number.NaN : options.score(query, passage) }))
    .sort((left, right) => right.score - left.score);
}

/**
 * An embedding and reranking model on loopback, speaking the real wire formats: OpenAI's `POST /v1/embeddings`
 * (`{ model, input }` → `{ object: "list", data: [{ object: "embedding", index, embedding }], model, usage }`),
 * text-embeddings-inference's `POST /rerank` (`{ query, texts }` → `[{ index, score }]`) and Cohere/Jina's
 * `POST /v1/rerank` (`{ model, query, documents, top_n }` → `{ results: [{ index, relevance_score }] }`). Its vectors
 * and scores are the test's functions, so a test decides which texts are near.
 */
export async function startLoopbackModelServer(options: LoopbackModelServerOptions): Promise<LoopbackModelServer> {
  const pending = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const answer = (response: ServerResponse, status: number, body: unknown) => {
    const send = () => {
      pending.delete(response);
      if (response.destroyed) return;
      if (state.fault === 'malformed') response.writeHead(200, { 'content-type': 'application/json' }).end('{"object": "list", "data": [');
      else if (state.fault === 'http-500') response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'model crashed' }));
      else response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    pending.add(response);
    if (state.fault === 'silent') return;
    if (state.delayMs <= 0) return send();
    const timer = setTimeout(() => {
      timers.delete(timer);
      send();
    }, state.delayMs);
    timers.add(timer);
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (part: string) => (raw += part));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://model').pathname;
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        response.writeHead(400).end();
        return;
      }
      state.received.push({ path, body });
      if (request.method === 'POST' && path === '/v1/embeddings' && Array.isArray(body.input)) {
        answer(response, 200, embeddingsAnswer(state, options, body.input as string[]));
      } else if (request.method === 'POST' && path === '/rerank' && Array.isArray(body.texts)) {
        answer(response, 200, scoresOf(state, options, String(body.query), body.texts as string[]));
      } else if (request.method === 'POST' && path === '/v1/rerank' && Array.isArray(body.documents)) {
        const results = scoresOf(state, options, String(body.query), body.documents as string[]).map(({ index, score }) => ({ index, relevance_score: score }));
        answer(response, 200, { model: body.model, results, usage: { total_tokens: results.length } });
      } else {
        // Both servers refuse a body of the other format with 422 (text-embeddings-inference) or 400.
        response.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unprocessable', error_type: 'Validation' }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const state: LoopbackModelServer = {
    baseUrl: `${origin}/v1`,
    teiUrl: origin,
    received: [],
    fault: 'none',
    delayMs: 0,
    model: 'loopback-embedder',
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const response of pending) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return state;
}

/**
 * A test model's vectors: one dimension per concept, each word counting for the concepts it names (case and
 * punctuation ignored), plus a constant dimension so no text is the zero vector. Words that share no letters land on
 * one concept, so a query and a page that share no word are near when their words name the same concepts.
 */
export function conceptEmbedding(concepts: Readonly<Record<string, readonly string[]>>): (text: string) => number[] {
  const names = Object.keys(concepts);
  const conceptOf = new Map<string, number>();
  names.forEach((name, position) => {
    for (const word of concepts[name]) conceptOf.set(word.toLowerCase(), position);
  });
  return (text) => {
    const vector = new Array<number>(names.length + 1).fill(0);
    vector[names.length] = 0.05;
    for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
      const concept = conceptOf.get(word);
      if (concept !== undefined) vector[concept] += 1;
    }
    return vector;
  };
}
