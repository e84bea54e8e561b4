import { LlmError } from './llm-client';

/** The part of a chat.completion.chunk we read. */
interface ChatCompletionChunk {
  choices?: { delta?: { content?: string | null } }[];
  error?: { message?: string };
}

/** The `data:` payloads of a server-sent event stream, one per event, as the events complete. */
async function* eventData(text: AsyncIterable<string>): AsyncIterable<string> {
  let buffered = '';
  for await (const piece of text) {
    buffered += piece.replace(/\r\n?/g, '\n');
    let end = buffered.indexOf('\n\n');
    while (end >= 0) {
      const data = dataOf(buffered.slice(0, end));
      buffered = buffered.slice(end + 2);
      if (data !== null) yield data;
      end = buffered.indexOf('\n\n');
    }
  }
  const last = dataOf(buffered);
  if (last !== null) yield last;
}

function dataOf(event: string): string | null {
  const lines = event
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).replace(/^ /, ''));
  return lines.length > 0 ? lines.join('\n') : null;
}

/**
 * The text of a streamed chat completion: `data: {chat.completion.chunk}` events, each carrying a piece of the
 * answer in `choices[0].delta.content`, ended by `data: [DONE]` (comments and keep-alives are skipped).
 */
export async function* chatCompletionDeltas(text: AsyncIterable<string>): AsyncIterable<string> {
  for await (const data of eventData(text)) {
    if (data.trim() === '[DONE]') return;
    let chunk: ChatCompletionChunk;
    try {
      chunk = JSON.parse(data) as ChatCompletionChunk;
    } catch {
      throw new LlmError('the model server streamed an event that is not JSON');
    }
    if (chunk.error) throw new LlmError(`the model server failed while streaming: ${chunk.error.message ?? 'no message'}`);
    const content = chunk.choices?.[0]?.delta?.content;
    if (typeof content === 'string' && content !== '') yield content;
  }
}
