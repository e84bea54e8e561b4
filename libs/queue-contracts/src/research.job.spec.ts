import { ResearchJob } from './research.job';

describe('ResearchJob', () => {
  const payload = {
    requestId: 'req-1',
    accountId: 'acc-1',
    input: 'What changed in Node 20?',
    model: 'auto',
    outputLength: 'standard',
    includeDomains: [],
    excludeDomains: ['example.com'],
    citationFormat: 'numbered',
  };

  it('accepts a research payload and enforces the 20-domain limit', () => {
    expect(ResearchJob.payloadSchema.safeParse(payload).success).toBe(true);
    const tooMany = Array.from({ length: 21 }, (_, index) => `d${index}.example`);
    expect(ResearchJob.payloadSchema.safeParse({ ...payload, excludeDomains: tooMany }).success).toBe(false);
    expect(ResearchJob.payloadSchema.safeParse({ ...payload, outputLength: 'huge' }).success).toBe(false);
  });
});
