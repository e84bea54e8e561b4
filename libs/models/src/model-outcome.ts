/**
 * Why a call to the operator's model server gave nothing usable. Each one means the same to a search: rank with
 * words alone. `unreachable`: no connection (refused, reset, name not resolved); `http-error`: an error status;
 * `malformed`: a body that is not the wire format; `wrong-dimension`: vectors of another size than the model's (or
 * than one another); `not-finite`: NaN or infinity in a vector or a score.
 */
export type ModelFailureReason = 'timeout' | 'unreachable' | 'http-error' | 'malformed' | 'wrong-dimension' | 'not-finite';

export interface ModelFailure {
  reason: ModelFailureReason;
  message: string;
  /** The status of an `http-error`. */
  status?: number;
}

/** What a model call gave: its value, or the failure a caller degrades on. Never thrown, so never a 5xx. */
export type ModelOutcome<T> = { ok: true; value: T } | { ok: false; failure: ModelFailure };

export function modelValue<T>(value: T): ModelOutcome<T> {
  return { ok: true, value };
}

export function modelFailure<T>(reason: ModelFailureReason, message: string, status?: number): ModelOutcome<T> {
  return { ok: false, failure: status === undefined ? { reason, message } : { reason, message, status } };
}
