import { z } from 'zod';
import { defineJob } from './job-definition';
import { QueueName } from './queue-name';
import { accountIdSchema, requestIdSchema } from './shared-schemas';

/**
 * A research job names its task; everything else (input, options, the reservation, the saved progress) is the
 * task's row in Postgres (research_tasks), so any gateway can answer a poll and a retried job resumes from it.
 */
export const researchPayloadSchema = z.object({
  requestId: requestIdSchema,
  accountId: accountIdSchema,
});
export type ResearchPayload = z.infer<typeof researchPayloadSchema>;

/** A source of a report, as GET /research and the stream's tool responses show it. */
export const researchSourceSchema = z.object({ title: z.string(), url: z.string(), favicon: z.string().nullable().optional() });
export type ResearchSource = z.infer<typeof researchSourceSchema>;

export const researchResultSchema = z.object({
  status: z.enum(['completed', 'failed']),
});
export type ResearchResult = z.infer<typeof researchResultSchema>;

/** The steps a stream shows as tool calls (Tavily's names). */
export const researchToolNameSchema = z.enum(['Planning', 'WebSearch', 'ResearchSubtopic', 'Generating']);
export type ResearchToolName = z.infer<typeof researchToolNameSchema>;

/**
 * What the worker publishes while it works, in order; the gateway turns each into one server-sent event
 * (`chat.completion.chunk` frames, then `event: done` or `event: error`). Published to a Redis stream per task,
 * so a client that connects late reads them from the start.
 */
export const researchEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('tool_call'),
    name: researchToolNameSchema,
    id: z.string(),
    arguments: z.string(),
    queries: z.array(z.string()).optional(),
  }),
  z.object({
    type: z.literal('tool_response'),
    name: researchToolNameSchema,
    id: z.string(),
    arguments: z.string(),
    sources: z.array(researchSourceSchema),
  }),
  /** A piece of the report: text chunks in order, or the whole object when an output_schema was given. */
  z.object({ type: z.literal('content'), content: z.union([z.string(), z.record(z.string(), z.unknown())]) }),
  z.object({ type: z.literal('sources'), sources: z.array(researchSourceSchema) }),
  z.object({ type: z.literal('done') }),
  z.object({ type: z.literal('error'), error: z.string() }),
]);
export type ResearchEvent = z.infer<typeof researchEventSchema>;

export const ResearchJob = defineJob({
  name: 'research',
  queue: QueueName.Research,
  payloadSchema: researchPayloadSchema,
  resultSchema: researchResultSchema,
  attempts: 1,
});
