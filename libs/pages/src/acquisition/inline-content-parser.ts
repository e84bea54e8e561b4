import { type ContentParsingPool, parseContentInline } from '@sift/task-pool';

/**
 * The parsing pool's three parses run on the calling thread: for tests, benchmarks and tools that parse a few pages
 * (the workers parse in their pool's threads, within a deadline and a heap cap).
 */
export const inlineContentParser: Pick<ContentParsingPool, 'html' | 'pdf' | 'text'> = {
  async html(document) {
    const result = await parseContentInline({ kind: 'html', ...document });
    if (result.kind !== 'html') throw new Error(`an html parse answered with a ${result.kind} result`);
    return result.analysis;
  },
  async pdf(data, url, requestedUrl, _deadlineMs, index) {
    const result = await parseContentInline({ kind: 'pdf', data, url, requestedUrl, maxPages: 200, index });
    if (result.kind !== 'page') throw new Error(`a pdf parse answered with a ${result.kind} result`);
    return result.indexed ? { page: result.page, indexed: result.indexed } : { page: result.page };
  },
  async text(text, url, requestedUrl, _deadlineMs, index) {
    const result = await parseContentInline({ kind: 'text', text, url, requestedUrl, index });
    if (result.kind !== 'page') throw new Error(`a text parse answered with a ${result.kind} result`);
    return result.indexed ? { page: result.page, indexed: result.indexed } : { page: result.page };
  },
};
