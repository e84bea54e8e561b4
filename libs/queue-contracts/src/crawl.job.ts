import { z } from 'zod';
import { crawlPayloadSchema, crawlProgressSchema } from './crawl-payload.schema';
import { defineJob } from './job-definition';
import { QueueName } from './queue-name';
import { webPageSchema } from './web-page.schema';

/**
 * A crawled page narrowed to what the crawl's answer shows. The whole page (markdown, text, metadata) goes to the
 * document store in the worker; carrying it back too would triple the job's result, megabytes through Redis and
 * the gateway's validation for a large crawl, for fields nobody reads.
 */
export const crawledPageSchema = webPageSchema.pick({ url: true, finalUrl: true, title: true, images: true, favicon: true });
export type CrawledPage = z.infer<typeof crawledPageSchema>;

export const crawlPageSchema = z.object({
  /** page.finalUrl is where the crawl found the page. */
  page: crawledPageSchema,
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
  streamsResultParts: true,
});
