import { OperatorEndpoint, safeRequest, safeRequestStream } from '@sift/safe-fetch';
import type { EgressPolicy, OperatorEndpointOptions, SafeRequestOptions } from '@sift/safe-fetch';
import { LlmError } from './llm-client';
import type { ChatMessage, CompletionOptions, LlmClient } from './llm-client';
import { chatCompletionDeltas } from './server-sent-events';

export interface OpenAiCompatibleOptions {
  /** LLM_BASE_URL, up to and including the version: https://api.openai.com/v1, http://localhost:11434/v1 */
  baseUrl: string;
  /** LLM_API_KEY; local servers usually need none. */
  apiKey?: string;
  /** LLM_MODEL */
  model: string;
  /** Egress policy for everything but the model host (the app's FETCH_ALLOW_CIDRS). */
  policy: EgressPolicy;
  /** Used when a call carries no deadline. */
  timeoutMs?: number;
  /** How the model host is re-resolved (default: the system resolver, every few seconds). */
  endpoint?: OperatorEndpointOptions;
}

/** The part of the chat.completion object we read. */
interface ChatCompletionResponse {
  choices?: { message?: { content?: string | null } }[];
  error?: { message?: string };
}

/** The chat-completions API spoken by OpenAI, vLLM, llama.cpp server and Ollama (POST {base}/chat/completions). */
export class OpenAiCompatibleClient implements LlmClient {
  private readonly endpoint: string;
  private readonly modelServer: OperatorEndpoint;

  constructor(private readonly options: OpenAiCompatibleOptions) {
    this.endpoint = new URL('chat/completions', options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`).toString();
    this.modelServer = new OperatorEndpoint(this.endpoint, options.policy, options.endpoint);
  }

  async complete(messages: ChatMessage[], options: CompletionOptions = {}): Promise<string> {
    options.signal?.throwIfAborted();
    const response = await safeRequest(this.endpoint, await this.requestOptions(messages, options, false));
    let parsed: ChatCompletionResponse;
    try {
      parsed = JSON.parse(response.text) as ChatCompletionResponse;
    } catch {
      throw new LlmError(`the model server answered ${response.status} with a body that is not JSON`, response.status);
    }
    if (response.status < 200 || response.status >= 300) {
      throw new LlmError(`the model server answered ${response.status}: ${parsed.error?.message ?? 'no message'}`, response.status);
    }
    const content = parsed.choices?.[0]?.message?.content;
    if (typeof content !== 'string' || content.trim() === '') {
      throw new LlmError('the model returned no text', response.status);
    }
    return content.trim();
  }

  async *stream(messages: ChatMessage[], options: CompletionOptions = {}): AsyncIterable<string> {
    options.signal?.throwIfAborted();
    const response = await safeRequestStream(this.endpoint, await this.requestOptions(messages, options, true));
    if (response.status < 200 || response.status >= 300) {
      let body = '';
      for await (const piece of response.text) body += piece;
      throw new LlmError(`the model server answered ${response.status}: ${errorMessageOf(body)}`, response.status);
    }
    let wrote = false;
    for await (const delta of chatCompletionDeltas(response.text)) {
      // Pieces already buffered when the caller's signal fired are not its to use any more.
      options.signal?.throwIfAborted();
      wrote = true;
      yield delta;
    }
    if (!wrote) throw new LlmError('the model returned no text', response.status);
  }

  private async requestOptions(messages: ChatMessage[], options: CompletionOptions, stream: boolean): Promise<SafeRequestOptions> {
    const body: Record<string, unknown> = { model: this.options.model, messages, temperature: options.temperature ?? 0.2 };
    if (options.maxTokens !== undefined) body.max_tokens = options.maxTokens;
    if (stream) body.stream = true;
    return {
      method: 'POST',
      body,
      headers: this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {},
      deadlineMs: options.deadlineMs ?? this.options.timeoutMs ?? 30_000,
      ...(options.signal ? { signal: options.signal } : {}),
      policy: await this.modelServer.policy(),
    };
  }
}

function errorMessageOf(body: string): string {
  try {
    return (JSON.parse(body) as ChatCompletionResponse).error?.message ?? 'no message';
  } catch {
    return 'no message';
  }
}
