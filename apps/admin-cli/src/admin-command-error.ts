/** A mistake in the operator's input: printed as one line without a stack trace, exit code 1. */
export class AdminCommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminCommandError';
  }
}
