import { modelFailure, modelValue, type ModelOutcome } from './model-outcome';
import type { ModelCallOptions, ModelServer } from './model-server';

/** The part of OpenAI's embeddings response read here (`POST /v1/embeddings`, `object: "list"`). */
interface EmbeddingsResponse {
  data?: { index?: unknown; embedding?: unknown }[];
}

export interface EmbedOptions extends ModelCallOptions {
  /** The size the vectors must have (the model's, as recorded with the stored ones); any other is a failure. */
  dimension?: number;
}

/**
 * OpenAI's embeddings API (`POST {base}/embeddings` with `{ model, input: [...] }`), as OpenAI, Hugging Face
 * text-embeddings-inference, Ollama, vLLM, llama.cpp's server and Infinity serve it. A vector per input, in the
 * inputs' order, all of one size and finite; anything else is a failure the caller ranks without.
 */
export class EmbeddingsClient {
  constructor(
    private readonly server: ModelServer,
    /** EMBEDDINGS_MODEL: sent with each call and recorded with each stored vector. */
    readonly model: string,
  ) {}

  async embed(texts: readonly string[], options: EmbedOptions): Promise<ModelOutcome<Float32Array[]>> {
    if (texts.length === 0) return modelValue([]);
    const answer = await this.server.post('embeddings', { model: this.model, input: texts }, options);
    return this.server.settle(answer.ok ? vectorsOf(answer.value, texts.length, options.dimension) : answer);
  }
}

function vectorsOf(body: unknown, count: number, dimension: number | undefined): ModelOutcome<Float32Array[]> {
  const data = (body as EmbeddingsResponse | null)?.data;
  if (!Array.isArray(data) || data.length !== count) return modelFailure('malformed', `expected ${count} embeddings, got ${Array.isArray(data) ? data.length : 'none'}`);
  const vectors: (Float32Array | undefined)[] = new Array(count);
  for (const [position, entry] of data.entries()) {
    // `index` says which input a vector belongs to; servers that omit it answer in input order.
    const index = entry?.index === undefined ? position : entry.index;
    const embedding = entry?.embedding;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count || vectors[index] !== undefined) {
      return modelFailure('malformed', `an embedding has no usable index (${String(index)})`);
    }
    if (!Array.isArray(embedding) || embedding.length === 0) return modelFailure('malformed', 'an embedding is not an array of numbers');
    const expected = dimension ?? vectors.find((vector) => vector !== undefined)?.length ?? embedding.length;
    if (embedding.length !== expected) return modelFailure('wrong-dimension', `an embedding has ${embedding.length} dimensions, expected ${expected}`);
    const vector = new Float32Array(embedding.length);
    for (let component = 0; component < embedding.length; component++) {
      const value = embedding[component];
      if (typeof value !== 'number' || !Number.isFinite(value)) return modelFailure('not-finite', `an embedding holds ${String(value)}`);
      vector[component] = value;
    }
    vectors[index] = vector;
  }
  return modelValue(vectors as Float32Array[]);
}
