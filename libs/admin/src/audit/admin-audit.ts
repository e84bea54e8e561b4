import type { AdminActor } from '../admin-actor';
import { AdminAuditRepository } from './admin-audit.repository';

export interface AuditedAction {
  /** `<area>.<verb>`: accounts.create, keys.deactivate, index.import, … */
  action: string;
  /** The input as the audit shows it: no key, token or password ever goes in here. */
  parameters: Record<string, unknown>;
  /** The account acted on, when known before the action runs. */
  accountId?: string | null;
  jobId?: string;
}

/** What the action tells the audit as it learns it: the account it acts on, once it has found (or made) it. */
export interface AuditSubject {
  accountId?: string | null;
}

/**
 * Every admin action goes through here, whichever door it came in by (admin API, command line): the event is written
 * before the action runs, so an action that never finishes is still on record, and its outcome after.
 */
export class AdminAudit {
  constructor(private readonly events: AdminAuditRepository) {}

  async perform<Result>(actor: AdminActor, action: AuditedAction, work: (subject: AuditSubject) => Promise<Result>): Promise<Result> {
    const eventId = await this.events.begin({
      channel: actor.channel,
      actor: actor.name,
      action: action.action,
      parameters: action.parameters,
      accountId: action.accountId ?? null,
      jobId: action.jobId ?? null,
      requestId: actor.requestId ?? null,
      clientIp: actor.clientIp ?? null,
    });
    const subject: AuditSubject = {};
    let result: Result;
    try {
      result = await work(subject);
    } catch (error) {
      await this.events.finish(eventId, 'failed', { error: (error as Error)?.message ?? String(error), accountId: subject.accountId });
      throw error;
    }
    await this.events.finish(eventId, 'succeeded', { accountId: subject.accountId });
    return result;
  }
}
