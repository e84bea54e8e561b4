// The queues a worker app consumes. A job definition names its queue so producer and consumer agree on it.
export const QueueName = {
  Extract: 'extract',
  Crawl: 'crawl',
  Research: 'research',
} as const;

export type QueueName = (typeof QueueName)[keyof typeof QueueName];
