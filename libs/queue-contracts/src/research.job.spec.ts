import { ResearchJob, researchEventSchema } from './research.job';

describe('ResearchJob', () => {
  it('names its task and nothing else', () => {
    expect(ResearchJob.payloadSchema.safeParse({ requestId: 'req-1', accountId: 'acc-1' }).success).toBe(true);
    expect(ResearchJob.payloadSchema.safeParse({ requestId: '', accountId: 'acc-1' }).success).toBe(false);
  });

  it('accepts the stream events in their documented shapes and refuses others', () => {
    expect(researchEventSchema.safeParse({ type: 'tool_call', name: 'WebSearch', id: 'c1', arguments: 'q', queries: ['q'] }).success).toBe(true);
    expect(researchEventSchema.safeParse({ type: 'content', content: { summary: 'x' } }).success).toBe(true);
    expect(researchEventSchema.safeParse({ type: 'tool_call', name: 'Browsing', id: 'c1', arguments: '' }).success).toBe(false);
    expect(researchEventSchema.safeParse({ type: 'finished' }).success).toBe(false);
  });
});
