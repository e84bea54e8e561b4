import { z } from 'zod';
import { crawlPayloadSchema, crawlProgressSchema } from './crawl-payload.schema';
import { defineJob } from './job-definition';
import { QueueName } from './queue-name';

export const crawlPageSchema = z.object({
  url: z.string(),
  rawContent: z.string(),
  images: z.array(z.string()).optional(),
  favicon: z.string().optional(),
});
export type CrawlPage = z.infer<typeof crawlPageSchema>;

export const crawlResultSchema = crawlProgressSchema.extend({
  baseUrl: z.string(),
  results: z.array(crawlPageSchema),
});
export type CrawlResult = z.infer<typeof crawlResultSchema>;

export const CrawlJob = defineJob({
  name: 'crawl',
  queue: QueueName.Crawl,
  payloadSchema: crawlPayloadSchema,
  resultSchema: crawlResultSchema,
  attempts: 1,
});
