import { z } from 'zod';
import { defineJob } from './job-definition';
import { QueueName } from './queue-name';
import { accountIdSchema, requestIdSchema } from './shared-schemas';

export const researchPayloadSchema = z.object({
  requestId: requestIdSchema,
  accountId: accountIdSchema,
  input: z.string().min(1),
  model: z.string().min(1),
  outputLength: z.enum(['short', 'standard', 'long']),
  /** Soft preference (spec: max 20). */
  includeDomains: z.array(z.string()).max(20),
  /** Hard blocklist (spec: max 20). */
  excludeDomains: z.array(z.string()).max(20),
  citationFormat: z.string().min(1),
});
export type ResearchPayload = z.infer<typeof researchPayloadSchema>;

export const researchSourceSchema = z.object({ title: z.string(), url: z.string() });
export type ResearchSource = z.infer<typeof researchSourceSchema>;

export const researchResultSchema = z.object({
  content: z.string(),
  sources: z.array(researchSourceSchema),
});
export type ResearchResult = z.infer<typeof researchResultSchema>;

export const ResearchJob = defineJob({
  name: 'research',
  queue: QueueName.Research,
  payloadSchema: researchPayloadSchema,
  resultSchema: researchResultSchema,
  attempts: 1,
});
