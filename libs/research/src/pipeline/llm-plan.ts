import type { LlmClient } from '@sift/llm';
import { z } from 'zod';
import { modelCallLimits } from './model-call';
import type { ResearchProgress } from './research-pipeline';
import { capQueries } from './research-plan';
import type { ResearchModel, ResearchSection } from './research-plan';

const PLAN_DEADLINE_MS = 30_000;

const planSchema = z.object({
  sections: z
    .array(z.object({ title: z.string().trim().min(1).max(200), queries: z.array(z.string().trim().min(2).max(300)).min(1) }))
    .min(1),
});

const INSTRUCTIONS: Record<ResearchModel, string> = {
  mini: 'Plan a focused search: up to 4 sections, each one targeted sub-question with one web search query.',
  pro: 'Plan a broad search: 3 to 6 subtopics covering different angles (background, how it works, comparisons, current state, criticism as relevant), each with 1 to 3 web search queries.',
};

/**
 * The plan written by the model: sections (pro: subtopics) with their search queries, within `maximumQueries`.
 * Null when the model fails or answers something that is not such a plan: the caller then plans without it.
 */
export async function llmPlan(
  llm: LlmClient,
  question: string,
  model: ResearchModel,
  maximumQueries: number,
  task: Pick<ResearchProgress, 'signal'>,
): Promise<ResearchSection[] | null> {
  let reply: string;
  try {
    reply = await llm.complete(
      [
        {
          role: 'system',
          content:
            `You plan web research for a question. ${INSTRUCTIONS[model]} Reply with JSON only, in this form: ` +
            '{"sections": [{"title": "…", "queries": ["…"]}]}',
        },
        { role: 'user', content: question },
      ],
      { maxTokens: 600, temperature: 0, ...modelCallLimits(PLAN_DEADLINE_MS, task) },
    );
  } catch {
    return null;
  }
  const start = reply.indexOf('{');
  const end = reply.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    const plan = planSchema.safeParse(JSON.parse(reply.slice(start, end + 1)));
    return plan.success ? capQueries(plan.data.sections, maximumQueries) : null;
  } catch {
    return null;
  }
}
