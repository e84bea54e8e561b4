/** What kind of mistake an admin request made: the API answers 400, 404 or 409; the command line exits 1. */
export type AdminErrorKind = 'invalid' | 'not-found' | 'conflict';

/** A mistake in the operator's input, said in one line (no stack trace on the command line). */
export class AdminError extends Error {
  constructor(
    message: string,
    readonly kind: AdminErrorKind = 'invalid',
  ) {
    super(message);
    this.name = 'AdminError';
  }
}
