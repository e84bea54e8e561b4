import { z } from 'zod';
import { crawlPayloadSchema, crawlProgressSchema } from './crawl-payload.schema';
import { defineJob } from './job-definition';
import { QueueName } from './queue-name';

export const mapResultSchema = crawlProgressSchema.extend({
  baseUrl: z.string(),
  urls: z.array(z.string()),
});
export type MapResult = z.infer<typeof mapResultSchema>;

/** A map is a crawl that reports the URLs it reached instead of their content; the crawler worker runs both. */
export const MapJob = defineJob({
  name: 'map',
  queue: QueueName.Crawl,
  payloadSchema: crawlPayloadSchema,
  resultSchema: mapResultSchema,
  attempts: 1,
});
