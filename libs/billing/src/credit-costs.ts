import type { ChargeLine } from './billing.service';

/** The spec's credit table. Fractional rates are charged per block of successes through a carry-over meter. */
export type SearchDepth = 'basic' | 'fast' | 'ultra-fast' | 'advanced';
export type ExtractDepth = 'basic' | 'advanced';
export type BillingMeterName = 'extract_basic' | 'extract_advanced' | 'map' | 'map_instructions';
export type BilledEndpoint = 'search' | 'extract' | 'crawl' | 'map' | 'research';

export interface MeterRate {
  unitsPerBlock: number;
  creditsPerBlock: number;
}

export interface CreditCostTable {
  search: Readonly<Record<SearchDepth, number>>;
  meters: Readonly<Record<BillingMeterName, MeterRate>>;
  feedback: number;
}

export const CREDIT_COSTS: Readonly<CreditCostTable> = Object.freeze({
  search: Object.freeze({ basic: 1, fast: 1, 'ultra-fast': 1, advanced: 2 }),
  meters: Object.freeze({
    extract_basic: { unitsPerBlock: 5, creditsPerBlock: 1 },
    extract_advanced: { unitsPerBlock: 5, creditsPerBlock: 2 },
    map: { unitsPerBlock: 10, creditsPerBlock: 1 },
    map_instructions: { unitsPerBlock: 10, creditsPerBlock: 2 },
  }),
  feedback: 0,
});

export function searchCredits(depth: SearchDepth): number {
  return CREDIT_COSTS.search[depth];
}

/** Crawl extraction is charged at the extract rates of its extract_depth. */
export function extractMeter(depth: ExtractDepth): BillingMeterName {
  return depth === 'advanced' ? 'extract_advanced' : 'extract_basic';
}

export function mapMeter(withInstructions: boolean): BillingMeterName {
  return withInstructions ? 'map_instructions' : 'map';
}

/**
 * The most `units` of a meter can be charged whatever the account's carry, i.e. what to reserve for them: the
 * carry is less than one block, so floor((carry + units) / per block) never exceeds ceil(units / per block).
 */
export function meteredCreditsBound(meter: BillingMeterName, units: number): number {
  const rate = CREDIT_COSTS.meters[meter];
  return Math.ceil(units / rate.unitsPerBlock) * rate.creditsPerBlock;
}

/** Worst-case credits of `pages` pages each charged on every one of `meters` (a crawl: mapping and extraction). */
export function pagesCreditsBound(meters: readonly BillingMeterName[], pages: number): number {
  return meters.reduce((sum, meter) => sum + meteredCreditsBound(meter, pages), 0);
}

/** The largest page count whose worst-case cost fits `credits`: a crawl or map is capped to it before it starts. */
export function affordablePages(meters: readonly BillingMeterName[], credits: number): number {
  // The bound grows with the page count; every meter charges at least one credit per block of pages, so no
  // more than credits × the smallest block size can fit.
  let fits = 0;
  let exceeds = credits * Math.min(...meters.map((meter) => CREDIT_COSTS.meters[meter].unitsPerBlock)) + 1;
  while (exceeds - fits > 1) {
    const middle = Math.floor((fits + exceeds) / 2);
    if (pagesCreditsBound(meters, middle) <= credits) fits = middle;
    else exceeds = middle;
  }
  return fits;
}

/** Research work: web searches (each at the basic search rate) and pages read (on the extract_basic meter). */
export interface ResearchWorkload {
  searches: number;
  extractions: number;
}

export type ResearchModelName = 'mini' | 'pro' | 'auto';

/**
 * The most work one research task may do, per model: what POST /research reserves and what a task can cost at
 * most. auto may become pro, so it reserves pro's ceiling (and is charged only the work done).
 */
export const RESEARCH_CEILINGS: Readonly<Record<ResearchModelName, Readonly<ResearchWorkload>>> = Object.freeze({
  mini: Object.freeze({ searches: 6, extractions: 20 }),
  pro: Object.freeze({ searches: 20, extractions: 60 }),
  auto: Object.freeze({ searches: 20, extractions: 60 }),
});

/** The cheapest task still worth running: one search and a few pages read. Less available → 432/433 at POST. */
export const RESEARCH_MINIMUM: Readonly<ResearchWorkload> = Object.freeze({ searches: 1, extractions: 5 });

/** Worst-case credits of a research workload, whatever the account's extract carry. */
export function researchCreditsBound(work: ResearchWorkload): number {
  return work.searches * searchCredits('basic') + meteredCreditsBound('extract_basic', work.extractions);
}

/**
 * The work a grant of `credits` pays for in the worst case, at most the model's ceiling: the ceiling's searches
 * and extractions scaled down together (at least one search), then the extractions the credits left still pay.
 */
export function affordableResearch(model: ResearchModelName, credits: number): ResearchWorkload {
  const ceiling = RESEARCH_CEILINGS[model];
  if (credits >= researchCreditsBound(ceiling)) return { ...ceiling };
  const share = credits / researchCreditsBound(ceiling);
  const searches = Math.min(Math.floor(credits / searchCredits('basic')), Math.max(1, Math.floor(ceiling.searches * share)));
  const left = credits - searches * searchCredits('basic');
  const rate = CREDIT_COSTS.meters.extract_basic;
  const extractions = Math.min(ceiling.extractions, Math.floor(Math.max(0, left) / rate.creditsPerBlock) * rate.unitsPerBlock);
  return { searches, extractions };
}

/** A completed task's charge: its searches at the search rate, its pages read on the extract_basic meter. */
export function researchChargeLines(work: ResearchWorkload): ChargeLine[] {
  return [
    { kind: 'research:search', credits: work.searches * searchCredits('basic') },
    { kind: 'research:extract_basic', meter: 'extract_basic', units: work.extractions },
  ];
}
