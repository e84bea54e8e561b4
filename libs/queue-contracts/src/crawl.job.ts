import { z } from 'zod';
import { crawlPayloadSchema, crawlProgressSchema } from './crawl-payload.schema';
import { defineJob } from './job-definition';
import { QueueName } from './queue-name';
import { webPageSchema } from './web-page.schema';

export const crawlPageSchema = z.object({
  /** page.finalUrl is where the crawl found the page. */
  page: webPageSchema,
  /** The page in the requested format, or with instructions its best chunks joined by ` [...] `. */
  content: z.string(),
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
