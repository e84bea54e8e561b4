import { randomUUID } from 'node:crypto';
import type { QueueUnderTest } from '@sift/queue';
import { ExtractUrlJob, type ExtractUrlPayload } from '@sift/queue-contracts';
import type { EgressPolicy } from '@sift/safe-fetch';
import { ContentParsingPool } from '@sift/task-pool';
import { type GitDocsSite, startGitDocsSite } from '@sift/testing';
import { ExtractionService } from './extraction.service';
import { startExtractQueue } from './testing/extract-queue';

// Parsing threads compile their TypeScript on start; the large pages take a second or more each on a busy machine.
jest.setTimeout(120_000);

const policy: EgressPolicy = { allowCidrs: ['127.0.0.1/32'] };
// The largest pages of the Git documentation site (120–500 kB): each keeps a parsing thread busy for a while.
const LARGE_PAGES = ['/git-config.html', '/user-manual.html', '/git-log.html', '/git-rev-list.html'];

describe('a multi-URL extract', () => {
  let site: GitDocsSite;
  let parser: ContentParsingPool;
  let queue: QueueUnderTest;
  let peakBusyThreads = 0;

  beforeAll(async () => {
    site = await startGitDocsSite();
    parser = await ContentParsingPool.start({ threads: 2, deadlineMs: 60_000, maxHeapMb: 512, maxQueue: 32, maxPdfPages: 10 });
    // The parser as the service sees it, noting how many threads are busy each time a document is handed over.
    const observedParser: Pick<ContentParsingPool, 'html' | 'pdf' | 'text'> = {
      html: (document, deadlineMs) => {
        const parsing = parser.html(document, deadlineMs);
        peakBusyThreads = Math.max(peakBusyThreads, parser.busyThreads);
        return parsing;
      },
      pdf: (...args) => parser.pdf(...args),
      text: (...args) => parser.text(...args),
    };
    const service = new ExtractionService({ policy, browser: { render: () => Promise.reject(new Error('no browser in this test')) }, parser: observedParser });
    queue = await startExtractQueue(service, 4);
  });

  afterAll(async () => {
    await queue?.close();
    await Promise.allSettled([parser?.close(), site?.close()]);
  });

  const payloadFor = (path: string): ExtractUrlPayload => ({
    requestId: randomUUID(),
    accountId: 'account-concurrency-test',
    url: `${site.origin}${path}`,
    extractDepth: 'basic',
    format: 'markdown',
    timeoutMs: 90_000,
    includeImages: false,
    includeFavicon: false,
    chunksPerSource: 3,
  });

  it('parses its pages in more than one thread at the same time, one job per URL', async () => {
    const results = await Promise.all(LARGE_PAGES.map((path) => queue.jobQueue.enqueueAndWait(ExtractUrlJob, payloadFor(path), { timeoutMs: 100_000 })));
    expect(results.map((result) => (result.ok ? result.page.finalUrl : result.error))).toEqual(LARGE_PAGES.map((path) => `${site.origin}${path}`));
    expect(results[0].ok && results[0].content).toContain('core.editor');
    // Two documents were parsing at once: the worker ran the jobs concurrently and the pool gave each its own thread.
    expect(peakBusyThreads).toBe(2);
    expect(parser.busyThreads).toBe(0);
  });
});
