import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request id (the X-Request-Id a caller sees) of the work running now: set once where a request or a job
 * begins, read by the logger for every line and by the job queue for every job enqueued on the request's behalf, so
 * one id follows a request from the gateway into each worker without being threaded through every signature.
 */
const scope = new AsyncLocalStorage<string>();

export function withRequestId<T>(requestId: string | undefined, run: () => T): T {
  return requestId === undefined ? run() : scope.run(requestId, run);
}

export function currentRequestId(): string | undefined {
  return scope.getStore();
}
