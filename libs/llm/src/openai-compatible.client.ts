import { OperatorEndpoint, safeRequest } from '@sift/safe-fetch';
import type { EgressPolicy, OperatorEndpointOptions } from '@sift/safe-fetch';
import { LlmError } from './llm-client';
import type { ChatMessage, CompletionOptions, LlmClient } from './llm-client';

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
    const body: Record<string, unknown> = { model: this.options.model, messages, temperature: options.temperature ?? 0.2 };
    if (options.maxTokens !== undefined) body.max_tokens = options.maxTokens;
    const headers: Record<string, string> = this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {};
    const response = await safeRequest(this.endpoint, {
      method: 'POST',
      body,
      headers,
      deadlineMs: options.deadlineMs ?? this.options.timeoutMs ?? 30_000,
      policy: await this.modelServer.policy(),
    });
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
}
