import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importJsonl, PageRepository } from '@sift/pages';
import { createPrismaClient, type PrismaClient } from '@sift/persistence';
import type { ResearchEvent } from '@sift/queue-contracts';
import { LocalIndexProvider } from '@sift/search-index';
import { GIT_DOCS_SITE_ROOT } from '@sift/testing';
import type { ResearchDependencies, ResearchRequest } from './research-pipeline';
import { unfilledFields } from '../output-schema';
import { runResearch } from './run-research';

// Storing the 272 pages of the Git documentation site takes seconds to tens of seconds on a busy machine.
jest.setTimeout(180_000);

/** Paths of every page the site's sitemap lists (`/git-bisect.html`). */
function sitePaths(): string[] {
  const sitemap = readFileSync(join(GIT_DOCS_SITE_ROOT, 'sitemap.xml'), 'utf8');
  return [...sitemap.matchAll(/<loc>http:\/\/127\.0\.0\.1:8080(\/[^<]+)<\/loc>/g)].map((match) => match[1]);
}

// Research without a model over the whole Git documentation site in the local index: a compound question is searched
// part by part, so each part's best page is among those the report is written from, where one search of the whole
// question finds the pages of its first part only.
describe('research without a model over the Git documentation', () => {
  let prisma: PrismaClient;
  let index: LocalIndexProvider;
  const domain = `git-docs-${randomUUID().slice(0, 8)}.test`;
  const origin = `https://${domain}`;

  beforeAll(async () => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 4);
    const folder = mkdtempSync(join(tmpdir(), 'sift-compound-'));
    try {
      const file = join(folder, 'git-docs.jsonl');
      writeFileSync(file, sitePaths().map((path) => JSON.stringify({ url: `${origin}${path}`, html: readFileSync(join(GIT_DOCS_SITE_ROOT, path), 'utf8') })).join('\n'));
      const imported = await importJsonl(file, { pages: new PageRepository(prisma) });
      expect(imported.imported).toBeGreaterThan(250);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    index = new LocalIndexProvider(prisma, { statisticsTtlMs: 0 });
  });

  afterAll(async () => {
    await prisma.document.deleteMany({ where: { domain } });
    await prisma.$disconnect();
  });

  /** The local index as the research worker searches it, kept to this file's pages (other files store pages meanwhile). */
  function dependencies(searched: string[], read: string[]): ResearchDependencies {
    return {
      search: async (query, options) => {
        searched.push(query);
        const candidates = await index.search({ query, maxResults: options.maxResults, depth: 'basic', includeDomains: [domain], includeMarkdown: false, deadlineMs: options.deadlineMs });
        return candidates.map((candidate) => ({ url: candidate.url, title: candidate.title, content: candidate.content, contentIsSnippet: candidate.contentIsSnippet, score: candidate.score }));
      },
      read: async (urls) => {
        read.push(...urls);
        return [];
      },
    };
  }

  /** `wrapUpAfterSearches`: the task's time runs out as that many searches have answered (its signal aborts). */
  async function research(input: string, searches: number, options: { outputSchema?: Record<string, unknown>; wrapUpAfterSearches?: number } = {}) {
    const searched: string[] = [];
    const read: string[] = [];
    const events: ResearchEvent[] = [];
    const request: ResearchRequest = {
      input,
      model: 'mini',
      outputLength: 'standard',
      citationFormat: 'numbered',
      includeDomains: [],
      excludeDomains: [],
      ...(options.outputSchema ? { outputSchema: options.outputSchema } : {}),
    };
    const wrapUp = new AbortController();
    const ports = dependencies(searched, read);
    const search: ResearchDependencies['search'] = async (query, searchOptions) => {
      const hits = await ports.search(query, searchOptions);
      if (searched.length === options.wrapUpAfterSearches) wrapUp.abort(new Error('The research task did not finish before its deadline.'));
      return hits;
    };
    const outcome = await runResearch(request, { searches, extractions: 10 }, { ...ports, search }, {
      emit: async (event) => void events.push(event),
      checkpoint: async () => undefined,
      signal: wrapUp.signal,
      deadlineAt: new Date(Date.now() + 120_000),
    });
    const sources = outcome.sources.map((source) => new URL(source.url).pathname);
    return { searched, read, sources, outcome, events };
  }

  it.each([
    // The example in the words. "undo" is not a word of git-revert's page, and the whole question's sixth
    // result is already the how-to on reverting a faulty merge: the part "undo it" adds git-reset's page.
    ['Find which commit introduced a regression, and then undo it', ['/git-reset.html']],
    ['Find which commit introduced a regression, and then revert it', ['/git-revert.html']],
    ['First find which commit introduced a regression, then revert it', ['/git-revert.html']],
  ])('"%s": writes from both parts\' pages, where one search of the whole question finds the first part\'s only', async (input, secondPart) => {
    const whole = await research(input, 1);
    expect(whole.searched).toEqual([input]);
    expect(whole.sources).toEqual(expect.arrayContaining(['/git-bisect.html']));
    expect(whole.sources.filter((path) => secondPart.includes(path))).toEqual([]);

    const parted = await research(input, 10);
    expect(parted.searched.length).toBeGreaterThan(1);
    expect(parted.sources).toEqual(expect.arrayContaining(['/git-bisect.html']));
    expect(parted.sources.filter((path) => secondPart.includes(path)).length).toBeGreaterThan(0);
    // Every page came from the index with its text: nothing was read through the extractor (nor charged).
    expect(parted.read).toEqual([]);
    expect(parted.outcome.work.extractions).toBe(0);
  });

  describe('output_schema without a model', () => {
    const schema = {
      properties: { command: { type: 'string', description: 'the Git command' }, founder: { type: 'string', description: 'who founded the project' } },
      required: ['command', 'founder'],
    };
    const input = 'Which Git command shows who last changed each line of a file, and who founded the project?';

    it('fills `command` with the command a source names, and `founder` only with a name a source gives for that role', async () => {
      const { outcome, sources } = await research(input, 6, { outputSchema: schema });
      const content = outcome.content as Record<string, unknown>;
      expect(content.command).toMatch(/^git[- ]blame$/);
      // Only the user manual says who designed Git ("Linus Torvalds originally designed Git"); whether the search reads
      // it depends on which pages the index holds besides the site. Either way, never a sentence in place of a name.
      if (sources.includes('/user-manual.html')) {
        expect([content.founder, unfilledFields(schema, content)]).toEqual(['Linus Torvalds', []]);
      } else {
        expect(content).not.toHaveProperty('founder');
        expect(unfilledFields(schema, content)).toEqual(['founder']);
      }
      expect(outcome.partialReason).toBeUndefined();
      expect(sources).toContain('/git-blame.html');
    });
  });

  describe('a task whose time runs out mid-way', () => {
    it('ends with a partial report from the sources gathered so far, and the work it did to charge', async () => {
      const input = 'Find which commit introduced a regression, and then revert it';
      const { outcome, searched, sources, events } = await research(input, 10, { wrapUpAfterSearches: 1 });
      // Stopped after the first of its searches: the others were never made.
      expect(searched).toEqual([input]);
      expect(outcome.work).toEqual({ searches: 1, extractions: 0 });
      expect(outcome.partialReason).toMatch(/^The research task reached its deadline before it finished; the report is written from the \d+ sources found by then\.$/);
      expect(sources).toContain('/git-bisect.html');
      expect(typeof outcome.content).toBe('string');
      expect(outcome.content).toMatch(/\[1\]/);
      expect(events.at(-1)).toEqual({ type: 'sources', sources: outcome.sources });
    });

    it('fills output_schema from what it gathered, listing what it could not', async () => {
      const schema = { properties: { command: { type: 'string' }, founder: { type: 'string' } }, required: ['command'] };
      const input = 'Which Git command shows who last changed each line of a file, and who founded the project?';
      const { outcome, sources } = await research(input, 10, { outputSchema: schema, wrapUpAfterSearches: 1 });
      expect(outcome.partialReason).toEqual(expect.any(String));
      expect(sources.length).toBeGreaterThan(0);
      // Which pages the one search finds depends on what else the index holds (other suites store pages too); what
      // must hold whatever it found: a field is filled with a value (a name, a command), never a sentence, and every
      // field left out is listed.
      const content = outcome.content as Record<string, unknown>;
      for (const value of Object.values(content)) expect(String(value).split(/\s+/).length).toBeLessThanOrEqual(3);
      if (content.founder !== undefined) expect(content.founder).toBe('Linus Torvalds');
      expect(unfilledFields(schema, content)).toEqual(['command', 'founder'].filter((field) => !(field in content)));
    });
  });
});
