import { extractiveAnswer } from './extractive-answer';
import type { AnswerDepth } from './extractive-answer';
import type { ChatMessage, LlmClient } from './llm-client';
import { numberSources } from './source-chunk';
import type { AnswerSource, GenerationMode, SourceChunk } from './source-chunk';
import { SOURCES_ARE_DATA, sourceBlock } from './untrusted-sources';

export interface AnswerOptions {
  /** The configured model; without one the answer is extractive. */
  client?: LlmClient;
  deadlineMs?: number;
}

export interface Answer {
  answer: string;
  mode: GenerationMode;
  /** The sources the [n] citations refer to, in citation order. */
  sources: AnswerSource[];
  /** Why the model was not used although configured (its error), when the answer fell back. */
  fallbackReason?: string;
}

// Characters of source text sent to the model: enough for the top chunks, within small local models' context.
const CONTEXT_CHARACTERS: Record<AnswerDepth, number> = { basic: 6000, advanced: 16000 };

const INSTRUCTIONS: Record<AnswerDepth, string> = {
  basic: 'Answer in at most three sentences.',
  advanced: 'Answer thoroughly in one to three paragraphs, covering the relevant details and any disagreement between sources.',
};

export function answerPrompt(query: string, chunks: SourceChunk[], depth: AnswerDepth): ChatMessage[] {
  const { numberOf } = numberSources(chunks);
  let budget = CONTEXT_CHARACTERS[depth];
  const blocks: string[] = [];
  for (const chunk of chunks) {
    if (budget <= 0) break;
    const content = chunk.content.slice(0, budget);
    budget -= content.length;
    blocks.push(sourceBlock(numberOf(chunk.url), chunk, content));
  }
  return [
    {
      role: 'system',
      content:
        'You answer questions using only the numbered sources given. Cite the sources you use inline as [n], n being ' +
        'the source’s id. If the sources do not contain the answer, say so in one sentence. Never invent facts. ' +
        `${SOURCES_ARE_DATA} ${INSTRUCTIONS[depth]}`,
    },
    { role: 'user', content: `Question: ${query}\n\nSources:\n\n${blocks.join('\n\n')}` },
  ];
}

/**
 * include_answer: a grounded, cited answer from the retrieved chunks. With a model configured it writes the
 * answer; without one, or when the model fails, the answer is extractive, and `mode` says which it was.
 */
export async function answerQuestion(query: string, chunks: SourceChunk[], depth: AnswerDepth, options: AnswerOptions = {}): Promise<Answer> {
  if (options.client && chunks.length > 0) {
    try {
      const answer = await options.client.complete(answerPrompt(query, chunks, depth), {
        deadlineMs: options.deadlineMs,
        maxTokens: depth === 'advanced' ? 700 : 200,
      });
      return { answer, mode: 'llm', sources: numberSources(chunks).sources };
    } catch (error) {
      return { ...extractiveAnswer(query, chunks, depth), mode: 'extractive', fallbackReason: (error as Error).message };
    }
  }
  return { ...extractiveAnswer(query, chunks, depth), mode: 'extractive' };
}
