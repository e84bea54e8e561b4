import { CreditLimitError, PaygoLimitError } from './billing-errors';
import { allocateCredits, type AllocationInput } from './credit-allocation';
import { startOfUtcMonth } from './utc-month';

const researcher: AllocationInput = {
  credits: 1, planId: 'researcher', planMonthlyCredits: 1000, paygoLimit: null, planUsed: 0, paygoUsed: 0, keyLimit: null, keyUsed: 0,
};

describe('allocateCredits', () => {
  it('takes from the plan allowance while it lasts', () => {
    expect(allocateCredits({ ...researcher, credits: 3, planUsed: 997 })).toEqual({ planCredits: 3, paygoCredits: 0 });
  });

  it('splits across the allowance edge into pay-as-you-go when a ceiling is set', () => {
    expect(allocateCredits({ ...researcher, credits: 3, planUsed: 999, paygoLimit: 2 })).toEqual({ planCredits: 1, paygoCredits: 2 });
    expect(() => allocateCredits({ ...researcher, credits: 3, planUsed: 999, paygoLimit: 1 })).toThrow(PaygoLimitError);
  });

  it('refuses past the allowance with pay-as-you-go off (plan limit, 432)', () => {
    const error = (() => { try { allocateCredits({ ...researcher, credits: 2, planUsed: 999 }); } catch (caught) { return caught; } })();
    expect(error).toBeInstanceOf(CreditLimitError);
    expect((error as CreditLimitError).reason).toBe('plan');
  });

  it('checks the key limit before anything else (key limit, 432)', () => {
    const error = (() => { try { allocateCredits({ ...researcher, planMonthlyCredits: null, keyLimit: 5, keyUsed: 5 }); } catch (caught) { return caught; } })();
    expect((error as CreditLimitError).reason).toBe('key');
  });

  it('treats enterprise as unlimited and an uncapped paygo plan as all pay-as-you-go', () => {
    expect(allocateCredits({ ...researcher, planId: 'enterprise', planMonthlyCredits: null, credits: 10 ** 9 })).toEqual({ planCredits: 10 ** 9, paygoCredits: 0 });
    expect(allocateCredits({ ...researcher, planId: 'paygo', planMonthlyCredits: 0, credits: 4, paygoUsed: 10 ** 6 })).toEqual({ planCredits: 0, paygoCredits: 4 });
  });
});

describe('startOfUtcMonth', () => {
  it('is midnight UTC on the first, whatever the local zone', () => {
    expect(startOfUtcMonth(new Date('2026-03-01T00:30:00+02:00')).toISOString()).toBe('2026-02-01T00:00:00.000Z');
    expect(startOfUtcMonth(new Date('2026-12-31T23:59:59Z')).toISOString()).toBe('2026-12-01T00:00:00.000Z');
  });
});
