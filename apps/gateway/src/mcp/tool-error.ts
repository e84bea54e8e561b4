import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ErrorResponseDto, KeylessErrorResponseDto } from '@sift/api-contracts';

/**
 * A refused tool call as the model reads it: the REST status and message as text (for the keyless budget, its
 * plain-language instructions and every next action), and the REST error body itself as structured content.
 */
export function toolErrorOf(status: number, body: unknown): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `${status}: ${messageOf(body)}` }],
    structuredContent: body as Record<string, unknown>,
  };
}

function messageOf(body: unknown): string {
  const keyless = (body as Partial<KeylessErrorResponseDto>).error;
  if (keyless) {
    const actions = keyless.next_actions.map((action) => `- ${action.type}: ${action.details}`);
    return [keyless.message, 'Next actions:', ...actions].join('\n');
  }
  return (body as ErrorResponseDto).detail.error;
}
