import { createHash } from 'node:crypto';
import type { ResearchEvent, ResearchSource, ResearchToolName } from '@sift/queue-contracts';
import { compileOutputSchema } from '../output-schema';
import { CitationOrder } from './citation-style';
import { extractiveObject } from './extractive-object';
import { extractiveReport, SentencePicker, sentencePool } from './extractive-report';
import { chunksPerPage, llmObject, llmReport } from './llm-report';
import { llmPlan } from './llm-plan';
import { choosePages, fusePages, withoutExcluded } from './page-selection';
import type { FoundPage, SearchStep } from './page-selection';
import { deterministicPlan, MAXIMUM_QUERIES, resolveModel } from './research-plan';
import { rerankedExcerpts, rerankSentences } from './reranked-passages';
import type { ResearchModel, ResearchSection } from './research-plan';
import type { ResearchBudget, ResearchCheckpoint, ResearchDependencies, ResearchOutcome, ResearchProgress, ResearchRequest } from './research-pipeline';
import type { SourcePage } from './source-page';

const RESULTS_PER_SEARCH = 6;
/** The longest one search or one batch of reads may take; less when the task's deadline is nearer. */
const SEARCH_DEADLINE_MS = 10_000;
const READ_DEADLINE_MS = 15_000;
/**
 * The longest the reranker may take to choose what the report is written from (all its calls at once); RERANK_TIMEOUT_MS
 * caps each call, and what it has not ordered by then keeps the words' order.
 */
const RERANK_DEADLINE_MS = 5_000;
/**
 * How much of a search hit's text a checkpoint keeps: a resume ranks hits again, it does not quote them (the
 * pages a report quotes are kept whole in `pages`). A pro task's hits in full were several hundred KB per save.
 */
const CHECKPOINT_SNIPPET_CHARACTERS = 500;
/** Pages a report draws on, by model and output_length. */
const PAGES_TO_READ: Record<ResearchModel, Record<ResearchRequest['outputLength'], number>> = {
  mini: { short: 4, standard: 6, long: 8 },
  pro: { short: 8, standard: 12, long: 16 },
};

/** The task's state while it runs: its request, what it may spend, and what it did (the checkpoint). */
class ResearchRun {
  readonly state: ResearchCheckpoint;
  /** Full texts the index returned with this run's hits (by URL): kept in memory, never in the checkpoint. */
  readonly fullTexts = new Map<string, string>();

  constructor(
    readonly request: ResearchRequest,
    readonly budget: ResearchBudget,
    readonly deps: ResearchDependencies,
    readonly progress: ResearchProgress,
    saved: ResearchCheckpoint | undefined,
  ) {
    this.state = saved ? structuredClone(saved) : { searches: [], pages: [], work: { searches: 0, extractions: 0 } };
  }

  /** Stops the task at a step boundary once its deadline has passed. */
  checkDeadline(step: string): void {
    if (!this.progress.signal.aborted) return;
    const reason = this.progress.signal.reason instanceof Error ? this.progress.signal.reason.message : 'the task ran out of time';
    throw new Error(`Research stopped before ${step}: ${reason}`);
  }

  /** A step's own time limit, cut to what is left before the task's deadline. */
  within(stepMs: number): number {
    return Math.max(1, Math.min(stepMs, this.progress.deadlineAt.getTime() - Date.now()));
  }

  async tool(name: ResearchToolName, description: string, work: () => Promise<ResearchSource[]>, queries?: string[]): Promise<ResearchSource[]> {
    // The same step has the same id in every attempt, so a resumed task's stream can tell the steps it already showed.
    const id = `call_${createHash('sha256').update(JSON.stringify([name, description, queries ?? []])).digest('hex').slice(0, 32)}`;
    await this.emit({ type: 'tool_call', name, id, arguments: description, ...(queries ? { queries } : {}) });
    const sources = await work();
    await this.emit({ type: 'tool_response', name, id, arguments: description, sources });
    return sources;
  }

  emit(event: ResearchEvent): Promise<void> {
    return this.progress.emit(event);
  }

  save(): Promise<void> {
    return this.progress.checkpoint(this.state);
  }
}

function sourceOf(page: { url: string; title: string; favicon?: string | null }): ResearchSource {
  return { title: page.title, url: page.url, favicon: page.favicon ?? null };
}

async function plan(run: ResearchRun, model: ResearchModel): Promise<ResearchSection[]> {
  if (run.state.sections) return run.state.sections;
  run.checkDeadline('planning');
  const maximum = Math.min(MAXIMUM_QUERIES[model], run.budget.searches);
  let sections: ResearchSection[] = [];
  await run.tool('Planning', `Planning the research (${model}): ${run.request.input}`, async () => {
    const planned = run.deps.llm ? await llmPlan(run.deps.llm, run.request.input, model, maximum, run.progress) : null;
    sections = planned ?? deterministicPlan(run.request.input, model);
    // A budget below the plan keeps the first queries of the first sections.
    let left = maximum;
    sections = sections.map((section) => ({ ...section, queries: section.queries.splice(0, Math.max(0, left)) }));
    sections.forEach((section) => (left -= section.queries.length));
    sections = sections.filter((section) => section.queries.length > 0);
    return [];
  });
  run.state.sections = sections;
  run.state.plan = sections.flatMap((section) => section.queries);
  await run.save();
  return sections;
}

async function searchOnce(run: ResearchRun, query: string): Promise<ResearchSource[]> {
  const done = run.state.searches.find((search) => search.query === query);
  if (done) return done.hits.map(sourceOf);
  if (run.state.work.searches >= run.budget.searches) return [];
  run.checkDeadline('searching');
  return run.tool(
    'WebSearch',
    `Searching the web: ${query}`,
    async () => {
      const { includeDomains, excludeDomains } = run.request;
      const hits = withoutExcluded(
        await run.deps.search(query, { maxResults: RESULTS_PER_SEARCH, includeDomains, excludeDomains, deadlineMs: run.within(SEARCH_DEADLINE_MS) }),
        excludeDomains,
      );
      for (const hit of hits) if (!hit.contentIsSnippet) run.fullTexts.set(hit.url, hit.content);
      run.state.searches.push({ query, hits: hits.map((hit) => ({ ...hit, content: hit.content.slice(0, CHECKPOINT_SNIPPET_CHARACTERS) })) });
      run.state.work.searches += 1;
      await run.save();
      return run.state.searches[run.state.searches.length - 1].hits.map(sourceOf);
    },
    [query],
  );
}

async function search(run: ResearchRun, model: ResearchModel, sections: ResearchSection[]): Promise<void> {
  for (const section of sections) {
    if (model === 'mini' || section.queries.every((query) => run.state.searches.some((search) => search.query === query))) {
      for (const query of section.queries) await searchOnce(run, query);
      continue;
    }
    await run.tool(
      'ResearchSubtopic',
      `Researching: ${section.title}`,
      async () => {
        const found: ResearchSource[] = [];
        for (const query of section.queries) found.push(...(await searchOnce(run, query)));
        return found.filter((source, position) => found.findIndex((other) => other.url === source.url) === position);
      },
      section.queries,
    );
  }
}

/** The pages the searches found to report from, in the order the searches ranked them. */
function chosenPages(run: ResearchRun, model: ResearchModel): FoundPage[] {
  const searches: SearchStep[] = run.state.searches;
  return choosePages(fusePages(searches, run.request.includeDomains), searches, PAGES_TO_READ[model][run.request.outputLength]);
}

/**
 * The chosen pages with the text the task holds for each: the page read, the index's full text, else (when `snippets`)
 * the search hit's own snippet. Pages with no text are left out.
 */
function withTexts(run: ResearchRun, chosen: FoundPage[], snippets: boolean): SourcePage[] {
  return chosen.flatMap((found): SourcePage[] => {
    const { hit } = found;
    const read = run.state.pages.find((page) => page.url === hit.url);
    const page = read ?? { ...hit, content: run.fullTexts.get(hit.url) ?? (snippets ? hit.content : '') };
    if (page.content.trim() === '') return [];
    return [{ source: sourceOf({ ...hit, ...page, favicon: page.favicon ?? hit.favicon }), content: page.content, queries: found.queries, preferred: found.preferred }];
  });
}

/** The pages to report from, each with its text (see readChosen), in the order the searches ranked them. */
async function read(run: ResearchRun, model: ResearchModel): Promise<SourcePage[]> {
  const chosen = chosenPages(run, model);
  await readChosen(run, chosen);
  return withTexts(run, chosen, false);
}

/**
 * Gives the chosen pages their texts. A page the index held in full has the text its hit came with (free); the
 * others are read through the extractor once (counted, within the budget) and kept in the checkpoint. The index's
 * full texts are not checkpointed (a pro task's were most of a megabyte per save): a resumed task reads those pages
 * again through the extractor, free as they were the first time.
 */
async function readChosen(run: ResearchRun, chosen: FoundPage[]): Promise<void> {
  const lost = chosen.filter(({ hit }) => !hit.contentIsSnippet && !run.fullTexts.has(hit.url)).map(({ hit }) => hit.url);
  const allowed = Math.max(0, run.budget.extractions - run.state.work.extractions);
  const paid = run.state.pagesRead ? [] : chosen.filter(({ hit }) => hit.contentIsSnippet).slice(0, allowed).map(({ hit }) => hit.url);
  const urls = [...lost, ...paid];
  if (urls.length > 0) {
    run.checkDeadline('reading');
    const pages = await run.deps.read(urls, { deadlineMs: run.within(READ_DEADLINE_MS) });
    for (const page of pages) if (lost.includes(page.url)) run.fullTexts.set(page.url, page.content);
    const bought = pages.filter((page) => paid.includes(page.url));
    run.state.pages.push(...bought);
    run.state.work.extractions += bought.length;
  }
  if (run.state.pagesRead) return;
  run.state.pagesRead = true;
  await run.save();
}

interface Synthesis {
  content: ResearchOutcome['content'];
  order: CitationOrder;
  mode: ResearchOutcome['mode'];
}

/**
 * The pages with the passages the operator's reranker chose for the model (unchanged without one, or when it fails or
 * is too slow: the model then reads each page's best chunks by words).
 */
async function withRerankedExcerpts(run: ResearchRun, pages: SourcePage[]): Promise<SourcePage[]> {
  const { request, deps } = run;
  if (!deps.rerank || pages.length === 0) return pages;
  const excerpts = await rerankedExcerpts(deps.rerank, request.input, pages, chunksPerPage(request.outputLength), run.within(RERANK_DEADLINE_MS));
  return excerpts ? pages.map((page) => ({ ...page, ...(excerpts.has(page.source.url) ? { excerpt: excerpts.get(page.source.url) } : {}) })) : pages;
}

async function synthesize(run: ResearchRun, sections: ResearchSection[], sourcePages: SourcePage[]): Promise<Synthesis> {
  const { request, deps } = run;
  const validator = request.outputSchema ? compileOutputSchema(request.outputSchema) : null;
  if (typeof validator === 'string') throw new Error(`Invalid output_schema: ${validator}`);
  const pages = deps.llm ? await withRerankedExcerpts(run, sourcePages) : sourcePages;
  const picker = () => new SentencePicker(sentencePool(pages), pages);
  if (validator) {
    if (deps.llm && pages.length > 0) {
      const content = await llmObject(deps.llm, request, validator, pages, run.progress);
      return { content, order: orderOf(pages), mode: 'llm' };
    }
    return { ...extractiveObject(validator, picker(), request.input), mode: 'extractive' };
  }
  if (deps.llm && pages.length > 0) {
    let streamed = false;
    try {
      const report = await llmReport(
        deps.llm,
        request,
        pages,
        (text) => {
          streamed = true;
          return run.emit({ type: 'content', content: text });
        },
        run.progress,
      );
      return { ...report, mode: 'llm' };
    } catch (error) {
      // Half a report already streamed cannot be taken back; before the first word, the sources' own sentences can stand in.
      if (streamed) throw error;
      // Unless the model was cut off by the task's deadline: the task has failed, nothing stands in.
      run.checkDeadline('writing the report');
    }
  }
  const sentences = picker();
  if (deps.rerank) await rerankSentences(deps.rerank, sentences, request, sections, run.within(RERANK_DEADLINE_MS));
  const report = extractiveReport(request, sections, sentences);
  for (const piece of report.pieces) await run.emit({ type: 'content', content: piece });
  return { content: report.pieces.join(''), order: report.order, mode: 'extractive' };
}

/** A model's object cites no sources one by one: its sources are the excerpts it was given. */
function orderOf(pages: SourcePage[]): CitationOrder {
  const order = new CitationOrder();
  for (const page of pages) order.numberOf(page.source);
  return order;
}

/**
 * Research: plan → search → read → synthesise, publishing each step as it goes and saving progress after each,
 * so a retried task resumes from `saved` without repeating (or charging again for) work already done.
 */
export async function runResearch(
  request: ResearchRequest,
  budget: ResearchBudget,
  deps: ResearchDependencies,
  progress: ResearchProgress,
  saved?: ResearchCheckpoint,
): Promise<ResearchOutcome> {
  const run = new ResearchRun(request, budget, deps, progress, saved);
  const model = run.state.resolvedModel ?? resolveModel(request.model, request.input);
  run.state.resolvedModel = model;
  let sections: ResearchSection[] | undefined;
  try {
    sections = await plan(run, model);
    await search(run, model, sections);
    const pages = await read(run, model);
    run.checkDeadline('writing the report');
    let synthesis: Synthesis | undefined;
    const sources = await run.tool('Generating', `Writing the report from ${pages.length} sources`, async () => {
      synthesis = await synthesize(run, sections ?? [], pages);
      return synthesis.order.sources;
    });
    if (!synthesis) throw new Error('Research produced no report');
    return await finish(run, model, synthesis, sources);
  } catch (error) {
    if (!progress.signal.aborted) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    return partial(run, model, sections ?? run.state.sections ?? deterministicPlan(request.input, model), reason);
  }
}

async function finish(run: ResearchRun, model: ResearchModel, synthesis: Synthesis, sources: ResearchSource[], partialReason?: string): Promise<ResearchOutcome> {
  if (typeof synthesis.content !== 'string') await run.emit({ type: 'content', content: synthesis.content });
  await run.emit({ type: 'sources', sources });
  return {
    content: synthesis.content,
    sources,
    mode: synthesis.mode,
    resolvedModel: model,
    work: { ...run.state.work },
    ...(partialReason !== undefined ? { partialReason } : {}),
  };
}

/**
 * The report of a task that must wrap up before it finished: written without a model (there is no time for one) from
 * the pages it chose so far, with the text it holds for each (a page read, the index's full text, else the search's
 * snippet: nothing more is read). Throws, and the task fails, when it had found no page to write from.
 */
async function partial(run: ResearchRun, model: ResearchModel, sections: ResearchSection[], stoppedBecause: string): Promise<ResearchOutcome> {
  const pages = withTexts(run, chosenPages(run, model), true);
  if (pages.length === 0) throw new Error(stoppedBecause);
  const reason = `The research task reached its deadline before it finished; the report is written from the ${pages.length} sources found by then.`;
  let synthesis: Synthesis | undefined;
  const sources = await run.tool('Generating', `Writing a partial report from ${pages.length} sources`, async () => {
    const picker = new SentencePicker(sentencePool(pages), pages);
    if (run.request.outputSchema) {
      const validator = compileOutputSchema(run.request.outputSchema);
      if (typeof validator === 'string') throw new Error(`Invalid output_schema: ${validator}`);
      synthesis = { ...extractiveObject(validator, picker, run.request.input), mode: 'extractive' };
    } else {
      const report = extractiveReport(run.request, sections, picker);
      for (const piece of report.pieces) await run.emit({ type: 'content', content: piece });
      synthesis = { content: report.pieces.join(''), order: report.order, mode: 'extractive' };
    }
    return synthesis.order.sources;
  });
  if (!synthesis) throw new Error(stoppedBecause);
  return finish(run, model, synthesis, sources, reason);
}
