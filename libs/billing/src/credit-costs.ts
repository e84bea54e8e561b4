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
