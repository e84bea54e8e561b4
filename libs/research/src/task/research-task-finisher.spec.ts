import type { ChargeResult, Reservation } from '@sift/billing';
import type { ResearchOutcome } from '../pipeline/research-pipeline';
import type { ResearchEvents } from './research-events';
import type { ResearchTask } from './research-task';
import { ResearchTaskFinisher } from './research-task-finisher';
import type { ResearchTaskRepository } from './research-task.repository';

const reservation: Reservation = { accountId: 'a', apiKeyId: 'k', projectId: null, requestId: 'r', endpoint: 'research', credits: 40, held: true };
const task = { requestId: 'r', accountId: 'a', reservation, work: { searches: 3, extractions: 4 }, mode: 'extractive' } as unknown as ResearchTask;

function finisherWith(settled: ChargeResult, charged: number[]) {
  const tasks = { recordCredits: async () => true } as unknown as ResearchTaskRepository;
  const events = { publish: async () => undefined } as unknown as ResearchEvents;
  const billing = { settle: async () => settled, release: async () => undefined };
  const requestLogs = { recordLateCharge: async () => true };
  return new ResearchTaskFinisher(tasks, events, billing, requestLogs, () => undefined, (credits) => charged.push(credits));
}

describe('ResearchTaskFinisher: the credits metric', () => {
  it('is told what a settle charged', async () => {
    const charged: number[] = [];
    await finisherWith({ charged: 12, planCredits: 12, paygoCredits: 0, replayed: false }, charged).settleCompleted(task);
    expect(charged).toEqual([12]);
  });

  it('is not told a replayed settle (the worker and a GET settling the same task count once)', async () => {
    const charged: number[] = [];
    await finisherWith({ charged: 12, planCredits: 12, paygoCredits: 0, replayed: true }, charged).settleCompleted(task);
    expect(charged).toEqual([]);
  });
});

describe('ResearchTaskFinisher: failing a task', () => {
  function recordingFinisher(calls: string[], failedIds: string[]) {
    const tasks = {
      fail: async (requestId: string) => (calls.push(`fail ${requestId}`), failedIds.includes(requestId) ? { ...task, requestId, error: 'x' } : null),
      findOverdue: async () => [task, { ...task, requestId: 's' }],
      failOverdue: async (ids: string[]) => (calls.push(`fail ${ids.join(',')}`), ids.filter((id) => failedIds.includes(id)).map((requestId) => ({ ...task, requestId, error: 'x' }))),
    } as unknown as ResearchTaskRepository;
    const events = { publish: async (requestId: string) => void calls.push(`publish ${requestId}`) } as unknown as ResearchEvents;
    const billing = { settle: async () => ({}) as ChargeResult, release: async (held: Reservation) => void calls.push(`release ${held.requestId}`) };
    return new ResearchTaskFinisher(tasks, events, billing, { recordLateCharge: async () => true });
  }

  it('releases the hold before the task reads as failed, then tells the stream', async () => {
    const calls: string[] = [];
    expect(await recordingFinisher(calls, ['r']).fail(task, 'broken')).toBe(true);
    expect(calls).toEqual(['release r', 'fail r', 'publish r']);
  });

  it('releases every overdue hold before failing them, and tells only the streams of those it failed', async () => {
    const calls: string[] = [];
    const failed = await recordingFinisher(calls, ['r']).failOverdue();
    expect(failed.map((one) => one.requestId)).toEqual(['r']);
    expect(calls).toEqual(['release r', 'release r', 'fail r,s', 'publish r']);
  });
});

describe('ResearchTaskFinisher: completing a task again after a failure on the way', () => {
  const outcome: ResearchOutcome = { content: 'report', sources: [], mode: 'extractive', resolvedModel: 'mini', work: { searches: 3, extractions: 4 } };

  function finisherOver(row: Partial<ResearchTask> | null, calls: string[]) {
    const tasks = {
      // The report is stored already (by the call that failed after it), or the task failed meanwhile.
      complete: async () => (calls.push('store'), false),
      findForAccount: async () => (row ? { ...task, ...row } : null),
      recordCredits: async () => (calls.push('record'), true),
    } as unknown as ResearchTaskRepository;
    const events = { publish: async () => void calls.push('done') } as unknown as ResearchEvents;
    const billing = { settle: async () => (calls.push('settle'), { charged: 7, planCredits: 7, paygoCredits: 0, replayed: false }), release: async () => undefined };
    return new ResearchTaskFinisher(tasks, events, billing, { recordLateCharge: async () => true });
  }

  it('charges the report it finds stored, once, and says it is stored', async () => {
    const calls: string[] = [];
    expect(await finisherOver({ status: 'completed', credits: null }, calls).complete(task, outcome)).toBe(true);
    expect(calls).toEqual(['store', 'settle', 'record', 'done']);
  });

  it('charges nothing more for a report stored and charged already', async () => {
    const calls: string[] = [];
    expect(await finisherOver({ status: 'completed', credits: 7 }, calls).complete(task, outcome)).toBe(true);
    expect(calls).toEqual(['store']);
  });

  it('says not stored when the task failed meanwhile', async () => {
    const calls: string[] = [];
    expect(await finisherOver({ status: 'failed' }, calls).complete(task, outcome)).toBe(false);
    expect(calls).toEqual(['store']);
  });
});
