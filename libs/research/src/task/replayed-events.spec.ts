import type { ResearchEvent } from '@sift/queue-contracts';
import { ReplayedEvents } from './replayed-events';

const planning: ResearchEvent = { type: 'tool_call', name: 'Planning', id: 'call_plan', arguments: 'Planning' };
const planned: ResearchEvent = { type: 'tool_response', name: 'Planning', id: 'call_plan', arguments: 'Planning', sources: [] };
const generating: ResearchEvent = { type: 'tool_call', name: 'Generating', id: 'call_gen', arguments: 'Writing' };
const piece = (content: string): ResearchEvent => ({ type: 'content', content });

describe('ReplayedEvents', () => {
  it('leaves out the steps and the pieces of the report the attempt that died already published', () => {
    const replayed = new ReplayedEvents([planning, planned, generating, piece('# Title'), piece('\n\n')]);
    const resumed = [generating, piece('# Title'), piece('\n\n'), piece('Body [1].'), { type: 'tool_response', name: 'Generating', id: 'call_gen', arguments: 'Writing', sources: [] }] as ResearchEvent[];
    expect(resumed.filter((event) => !replayed.repeats(event))).toEqual(resumed.slice(3));
  });

  it('publishes every piece from the first that differs (a model writing other words the second time)', () => {
    const replayed = new ReplayedEvents([piece('Rebase '), piece('rewrites'), piece(' history.')]);
    expect([piece('Rebase '), piece('replays'), piece(' history.')].map((event) => replayed.repeats(event))).toEqual([true, false, false]);
  });

  it('repeats nothing for a first attempt', () => {
    const replayed = new ReplayedEvents([]);
    expect([planning, piece('x'), { type: 'sources', sources: [] } as ResearchEvent].some((event) => replayed.repeats(event))).toBe(false);
  });
});
