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
