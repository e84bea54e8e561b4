export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompletionOptions {
  maxTokens?: number;
  temperature?: number;
  /** Time for the whole call; the caller's remaining search budget. */
  deadlineMs?: number;
  /**
   * The caller's own end (a research task's deadline): aborting it cancels the request, and a stream gives no
   * piece after it, even one already received.
   */
  signal?: AbortSignal;
}

/** A chat model: OpenAI, vLLM, llama.cpp server, Ollama, … behind one call. */
export interface LlmClient {
  complete(messages: ChatMessage[], options?: CompletionOptions): Promise<string>;
  /** The same call, its text given piece by piece as the model writes it. */
  stream(messages: ChatMessage[], options?: CompletionOptions): AsyncIterable<string>;
}

/** The model answered with an error, malformed JSON or no text. */
export class LlmError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}
