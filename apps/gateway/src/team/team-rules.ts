import { ForbiddenActionError, NotFoundError, TeamActor, TeamConflictError } from '@sift/auth';
import { ApiError } from '../http/api-error';
import type { KeyedCaller } from '../caller/request-context';

/** A key created for a member acts as that member; an account-level key (admin CLI without --member) acts as the operator. */
export function teamActorOf(caller: KeyedCaller): TeamActor {
  return caller.memberId ? { accountId: caller.accountId, memberId: caller.memberId } : { accountId: caller.accountId, operator: true };
}

/** Runs a team rule and answers its refusals in the spec's error shape: 403 role, 404 no such member, 409 invariant. */
export async function underTeamRules<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ForbiddenActionError) throw new ApiError(403, error.message);
    if (error instanceof NotFoundError) throw new ApiError(404, error.message);
    if (error instanceof TeamConflictError) throw new ApiError(409, error.message);
    throw error;
  }
}
