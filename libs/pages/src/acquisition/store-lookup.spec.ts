import type { PageRepository } from '../page.repository';
import type { PageNeeds } from '../stored-copy';
import type { DocumentSource, StoredPage } from '../stored-page';
import { STORE_LOOKUP_MS, storedCopiesAnswering, withinStoreLookup } from './store-lookup';

function copy(url: string, source: DocumentSource): StoredPage {
  return { id: url, fetchedAt: new Date(), source, page: { url, finalUrl: url, title: url, text: 'Text.', markdown: 'Text.' } as StoredPage['page'] };
}

/** A store holding `copies`, recording the URLs of each lookup. */
function storeOf(copies: StoredPage[], answer: (found: Map<string, StoredPage>) => Promise<Map<string, StoredPage>> = async (found) => found) {
  const lookups: string[][] = [];
  const store: Pick<PageRepository, 'getFreshMany'> = {
    getFreshMany: (_viewer, urls) => {
      lookups.push([...urls]);
      return answer(new Map(copies.filter((stored) => urls.includes(stored.page.url)).map((stored) => [stored.page.url, stored])));
    },
  };
  return { store, lookups };
}

const basicMarkdown: PageNeeds = { extractDepth: 'basic', format: 'markdown', includeImages: false };
const wanted = (urls: string[], needs = basicMarkdown, maxAgeMs = 60_000) => ({ viewer: 'operator' as const, urls, maxAgeMs, needs });
const noError = (error: unknown) => {
  throw error;
};

describe('storedCopiesAnswering', () => {
  it('asks the store once for every URL and keeps the copies that hold what is needed', async () => {
    const { store, lookups } = storeOf([copy('https://a.example/', 'extract'), copy('https://b.example/', 'import'), copy('https://c.example/', 'crawl')]);
    const copies = await storedCopiesAnswering(store, wanted(['https://a.example/', 'https://b.example/', 'https://c.example/', 'https://d.example/']), noError);
    expect(lookups).toEqual([['https://a.example/', 'https://b.example/', 'https://c.example/', 'https://d.example/']]);
    // The import is bare text: it cannot answer markdown.
    expect([...copies.keys()]).toEqual(['https://a.example/', 'https://c.example/']);
  });

  it('does not ask the store when no copy could answer, no age is allowed, or there is no URL', async () => {
    const { store, lookups } = storeOf([copy('https://a.example/', 'extract')]);
    expect((await storedCopiesAnswering(store, wanted(['https://a.example/'], { ...basicMarkdown, extractDepth: 'advanced' }), noError)).size).toBe(0);
    expect((await storedCopiesAnswering(store, wanted(['https://a.example/'], basicMarkdown, 0), noError)).size).toBe(0);
    expect((await storedCopiesAnswering(store, wanted([]), noError)).size).toBe(0);
    expect(lookups).toEqual([]);
  });

  it('answers none, and reports the error, when the store fails', async () => {
    const { store } = storeOf([], () => Promise.reject(new Error('connection refused')));
    const errors: unknown[] = [];
    const copies = await storedCopiesAnswering(store, wanted(['https://a.example/']), (error) => errors.push(error));
    expect(copies.size).toBe(0);
    expect(errors).toEqual([new Error('connection refused')]);
  });

  it('answers none once the store has not answered within the time given', async () => {
    const { store } = storeOf([copy('https://a.example/', 'extract')], () => new Promise(() => undefined));
    const startedAt = Date.now();
    const copies = await storedCopiesAnswering(store, wanted(['https://a.example/']), noError, 50);
    expect(copies.size).toBe(0);
    expect(Date.now() - startedAt).toBeLessThan(STORE_LOOKUP_MS);
  });
});

describe('withinStoreLookup', () => {
  it('never waits longer than STORE_LOOKUP_MS, whatever time is given', async () => {
    jest.useFakeTimers();
    try {
      const answer = withinStoreLookup(new Promise<string | null>(() => undefined), 60_000, noError);
      jest.advanceTimersByTime(STORE_LOOKUP_MS);
      await expect(answer).resolves.toBeNull();
    } finally {
      jest.useRealTimers();
    }
  });
});
