import { affordablePages, affordableResearch, meteredCreditsBound, pagesCreditsBound, RESEARCH_CEILINGS, RESEARCH_MINIMUM, researchCreditsBound } from './credit-costs';
import { startOfUtcMonth } from './utc-month';

describe('reservation bounds', () => {
  it('bounds a metered charge by whole blocks rounded up, at least any settlement whatever the carry', () => {
    expect(meteredCreditsBound('extract_basic', 0)).toBe(0);
    expect(meteredCreditsBound('extract_basic', 1)).toBe(1);
    expect(meteredCreditsBound('extract_basic', 5)).toBe(1);
    expect(meteredCreditsBound('extract_advanced', 6)).toBe(4);
    for (let carry = 0; carry < 5; carry += 1) {
      for (let units = 0; units <= 23; units += 1) {
        expect(Math.floor((carry + units) / 5) * 2).toBeLessThanOrEqual(meteredCreditsBound('extract_advanced', units));
      }
    }
  });

  it('prices a crawl page on the mapping and the extraction meter', () => {
    expect(pagesCreditsBound(['map', 'extract_basic'], 1)).toBe(2);
    expect(pagesCreditsBound(['map', 'extract_basic'], 10)).toBe(3);
    expect(pagesCreditsBound(['map_instructions', 'extract_advanced'], 50)).toBe(10 + 20);
  });

  it('finds the largest page count whose worst case fits the granted credits', () => {
    expect(affordablePages(['map'], 0)).toBe(0);
    expect(affordablePages(['map'], 3)).toBe(30);
    expect(affordablePages(['map_instructions'], 3)).toBe(10);
    expect(affordablePages(['map', 'extract_basic'], 1)).toBe(0);
    expect(affordablePages(['map', 'extract_basic'], 2)).toBe(5);
    expect(affordablePages(['map', 'extract_basic'], 3)).toBe(10);
    for (let credits = 0; credits <= 40; credits += 1) {
      const pages = affordablePages(['map', 'extract_advanced'], credits);
      expect(pagesCreditsBound(['map', 'extract_advanced'], pages)).toBeLessThanOrEqual(credits);
      expect(pagesCreditsBound(['map', 'extract_advanced'], pages + 1)).toBeGreaterThan(credits);
    }
  });
});

describe('startOfUtcMonth', () => {
  it('is midnight UTC on the first, whatever the local zone', () => {
    expect(startOfUtcMonth(new Date('2026-03-01T00:30:00+02:00')).toISOString()).toBe('2026-02-01T00:00:00.000Z');
    expect(startOfUtcMonth(new Date('2026-12-31T23:59:59Z')).toISOString()).toBe('2026-12-01T00:00:00.000Z');
  });
});

describe('research ceilings', () => {
  it('prices each model at its searches plus its extractions in blocks of 5, auto at pro', () => {
    expect(researchCreditsBound(RESEARCH_CEILINGS.mini)).toBe(6 + 4);
    expect(researchCreditsBound(RESEARCH_CEILINGS.pro)).toBe(20 + 12);
    expect(researchCreditsBound(RESEARCH_CEILINGS.auto)).toBe(researchCreditsBound(RESEARCH_CEILINGS.pro));
    expect(researchCreditsBound(RESEARCH_MINIMUM)).toBe(2);
  });

  it('gives a full grant the whole ceiling and a smaller one work whose worst case fits it', () => {
    expect(affordableResearch('mini', 10)).toEqual({ searches: 6, extractions: 20 });
    expect(affordableResearch('pro', 1000)).toEqual({ searches: 20, extractions: 60 });
    for (const model of ['mini', 'pro', 'auto'] as const) {
      for (let credits = researchCreditsBound(RESEARCH_MINIMUM); credits <= 40; credits += 1) {
        const work = affordableResearch(model, credits);
        expect(researchCreditsBound(work)).toBeLessThanOrEqual(credits);
        expect(work.searches).toBeGreaterThanOrEqual(1);
        expect(work.extractions).toBeGreaterThanOrEqual(credits >= researchCreditsBound(RESEARCH_CEILINGS[model]) ? RESEARCH_CEILINGS[model].extractions : 0);
      }
    }
    expect(affordableResearch('pro', 2)).toEqual({ searches: 1, extractions: 5 });
  });
});
